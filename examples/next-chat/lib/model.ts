// Which model answers: a real provider when its API key is set, else the offline scripted model.
// Only web APIs and AI SDK providers here, so both routes (Node and edge) can use it.
import { anthropic } from '@ai-sdk/anthropic'
import { google } from '@ai-sdk/google'
import { openai } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import { createScriptedModel } from './scripted-model'

export interface ChosenModel {
  /** A model object (never an id string), so it can also be wrapped by `withToolkit`. */
  model: Exclude<LanguageModel, string>
  /** What the page shows, e.g. "openai · gpt-5-mini". */
  label: string
}

/** `CHAT_MODEL` overrides the provider's default model id. */
export function chooseModel(): ChosenModel {
  const override = process.env.CHAT_MODEL
  if (process.env.OPENAI_API_KEY) {
    const id = override ?? 'gpt-5-mini'
    return { model: openai(id), label: `openai · ${id}` }
  }
  if (process.env.ANTHROPIC_API_KEY) {
    const id = override ?? 'claude-haiku-4-5'
    return { model: anthropic(id), label: `anthropic · ${id}` }
  }
  if (process.env.GOOGLE_GENERATIVE_AI_API_KEY) {
    const id = override ?? 'gemini-2.5-flash'
    return { model: google(id), label: `google · ${id}` }
  }
  return { model: createScriptedModel(), label: 'scripted · offline' }
}

export const SYSTEM_PROMPT =
  'You are the toolnexus demo assistant. Use the tools when they help, say plainly when one fails, and keep answers short.'

/** The Gemini model of the @google/genai route (`GEMINI_MODEL` overrides it). */
export function geminiModelId(): string {
  return process.env.GEMINI_MODEL ?? 'gemini-2.5-flash'
}

/** What the page shows for the @google/genai route: Gemini with `GEMINI_API_KEY`, else the offline endpoint. */
export function geminiModelLabel(): string {
  return process.env.GEMINI_API_KEY
    ? `@google/genai · ${geminiModelId()}`
    : 'scripted · offline, over @google/genai'
}
