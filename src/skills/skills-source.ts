import type { Tool } from '../tool/types.js'

/** What the skills source hands the toolkit: the `skill` tool (when any skill exists) and the prompt. */
export interface SkillsSource {
  tools: Tool[]
  /** The `skillsPrompt()` text; empty when no skill has a description. */
  prompt: string
}
