// Tools written as plain functions. Nothing here needs Node, so the edge route can use them too.
import { defineTool } from 'toolnexus'

/** Adds two numbers (the edge route's stand-in for the MCP server's `get-sum`). */
export const add = defineTool({
  name: 'add',
  description: 'Adds two numbers and returns the sum.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'number', description: 'First number' },
      b: { type: 'number', description: 'Second number' },
    },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => `${a} + ${b} = ${a + b}`,
})

/** The current time in a time zone: a tool the model cannot answer without. */
export const currentTime = defineTool({
  name: 'current_time',
  description: 'The current date and time in an IANA time zone such as "Europe/Paris" (default UTC).',
  inputSchema: {
    type: 'object',
    properties: { timeZone: { type: 'string', description: 'IANA time zone name, e.g. "Asia/Tokyo"' } },
  },
  execute: ({ timeZone = 'UTC' }) =>
    // An unknown zone throws a RangeError here; toolnexus hands it to the model as an error result.
    new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'long', timeZone }).format(new Date()),
})

/** Always fails, so the page shows what a failing tool looks like and the model can recover from it. */
export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up the status of an order by its id.',
  inputSchema: {
    type: 'object',
    properties: { orderId: { type: 'string', description: 'The order id, e.g. "A-1042"' } },
    required: ['orderId'],
  },
  execute: ({ orderId }) => {
    throw new Error(`Order service unreachable while looking up ${orderId} (this demo tool always fails).`)
  },
})

/**
 * Deletes a note: a tool that must not run on the model's word alone. `needsApproval` makes the run wait
 * for the person: the page shows Approve / Deny, and the run goes on with their answer.
 */
export const deleteNote = defineTool({
  name: 'delete_note',
  description: 'Deletes one of the user’s notes by its title. Asks the user first.',
  inputSchema: {
    type: 'object',
    properties: { title: { type: 'string', description: 'The note’s title, e.g. "groceries"' } },
    required: ['title'],
  },
  needsApproval: true,
  execute: ({ title }) => `Deleted the note “${title}”.`,
})

export const nativeTools = [add, currentTime, lookupOrder]
