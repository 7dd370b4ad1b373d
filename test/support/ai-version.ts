// The installed `ai` (6 or 7), read from its package.json: tests branch on it where the majors differ.
import { createRequire } from 'node:module'

export const aiVersion: string = createRequire(import.meta.url)('ai/package.json').version
export const aiMajor: number = Number.parseInt(aiVersion, 10)
