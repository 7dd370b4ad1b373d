import { convertJsonSchemaToGeminiSchema as c } from '/work/main/src/adapters/convert-json-schema-to-gemini-schema.ts'
import { toGemini } from '/work/main/src/adapters/convert-to-gemini-tools.ts'
import { geminiToolsProblems } from '/work/main/test/adapters/gemini-subset.ts'
const a = {"type":"object","definitions":{"c":{"prefixItems":[]}},"oneOf":[{"properties":{"a":{"$ref":"#/definitions/c"}},"$ref":"#/definitions/c"}]}
const t = toGemini([{ name: 't', description: '', inputSchema: a, source: 'custom', execute: async () => ({ output: '', isError: false }) }])
console.log(JSON.stringify(t), geminiToolsProblems(t))
const b = {"type":"object","properties":{"a":{"$ref":"#/$defs/b"}},"$defs":{"b":{"items":""}},"definitions":{"c":{"$ref":"#/properties/a"}},"oneOf":[{"anyOf":[{"$ref":"#/definitions/c"}]}]}
const once = c(b as any); console.log(JSON.stringify(once)); console.log(JSON.stringify(c(once as any)))
