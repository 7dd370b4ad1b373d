// PLACEHOLDER — the skills helper replaces this file (§6).
import type { Logger } from '../toolkit/logger.js'
import type { SkillsSource } from '../toolkit/sources.js'

export async function loadSkills(_roots: string[], _options: { logger: Logger }): Promise<SkillsSource> {
  throw new Error('skills source: not built yet')
}
