import type { Logger } from '../shared/logger.js'

// The logger of the toolkit that holds each schema, so that a warning about a schema found while converting
// it (wherever that happens: `tk.toGemini()`, `toGemini(tk.tools())`, a transport) reaches that toolkit.
const loggers = new WeakMap<object, Logger>()
// What each logger was already told about each schema: a warning is given once, not on every turn.
const told = new WeakMap<object, WeakMap<Logger, Set<string>>>()

/**
 * Routes later warnings about `schema` to `logger` (the toolkit's). A schema held by two toolkits warns the
 * one that registered it last.
 *
 * @example
 * attachSchemaLogger(tool.inputSchema, logger)
 */
export function attachSchemaLogger(schema: unknown, logger: Logger): void {
  if (typeof schema === 'object' && schema !== null) loggers.set(schema, logger)
}

/**
 * Gives `message` about `schema` to the logger attached to it and to `extra`, each at most once.
 *
 * @example
 * warnAboutSchema(tool.inputSchema, 'Tool "x": …', options.logger)
 */
export function warnAboutSchema(schema: unknown, message: string, extra?: Logger): void {
  if (typeof schema !== 'object' || schema === null) {
    extra?.warn(message)
    return
  }
  const attached = loggers.get(schema)
  for (const logger of attached === extra ? [attached] : [attached, extra]) {
    if (logger === undefined) continue
    let byLogger = told.get(schema)
    if (byLogger === undefined) {
      byLogger = new WeakMap()
      told.set(schema, byLogger)
    }
    let messages = byLogger.get(logger)
    if (messages === undefined) {
      messages = new Set()
      byLogger.set(logger, messages)
    }
    if (messages.has(message)) continue
    messages.add(message)
    logger.warn(message)
  }
}
