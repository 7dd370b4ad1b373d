// The one scenario every implementation runs, so that only the framework differs between rows.

/** What the user asks; the scripted endpoints answer it with two parallel tool calls, then a final answer. */
export const PROMPT = 'What is the weather and the local time in Paris?'

/** The system prompt every implementation sends (Mastra requires instructions, so everyone gets the same). */
export const SYSTEM = 'You are a concise assistant. Use the tools.'

/** The city the scripted model asks about. */
export const CITY = 'Paris'

/** The model id sent to the scripted endpoints; any id works, it is only echoed. */
export const MODEL_ID = 'bench-model'

/** The answer the scripted endpoint gives once both tool results reached it intact. */
export const EXPECTED_ANSWER = 'In Paris it is sunny at 18°C, and the local time is 12:00.'

/** The two tools of the scenario, with the same names native and over MCP. */
export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The current weather in a city.',
} as const

export const TIME_TOOL = {
  name: 'get_time',
  description: 'The local time in a city.',
} as const

/** The JSON Schema both tools take (the zod schemas in the implementations say the same). */
export const CITY_JSON_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city name.' } },
  required: ['city'],
  additionalProperties: false,
} as const

/** The weather tool's work: cheap and deterministic, so the framework is what gets measured. */
export function getWeather(city: string): { city: string; condition: string; temperatureC: number } {
  return { city, condition: 'sunny', temperatureC: 18 }
}

/** The time tool's work. */
export function getTime(city: string): { city: string; time: string } {
  return { city, time: '12:00' }
}

/** Reads `city` from tool arguments that a hand-written loop parsed itself. */
export function cityOf(args: unknown): string {
  if (typeof args === 'object' && args !== null && 'city' in args && typeof args.city === 'string') {
    return args.city
  }
  throw new Error(`expected { city: string }, got ${JSON.stringify(args)}`)
}

/** Markers the endpoint looks for in the tool results it gets back: proof both tools really ran. */
export const WEATHER_MARKER = 'sunny'
export const TIME_MARKER = '12:00'
