// An independent reading of Anthropic's rules for a tool's `input_schema`: the root is an object schema, and
// every property key at the root matches `^[a-zA-Z0-9_.-]{1,64}$` (the API answers 400 for one that does
// not). Empty means the API would accept the schema's shape.
const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/

/** Every way `schema` breaks Anthropic's `input_schema` rules, each as `path: problem`. */
export function anthropicSchemaProblems(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return ['input_schema: not an object']
  }
  const node = schema as Record<string, unknown>
  const problems: string[] = []
  if (node.type !== 'object') problems.push("input_schema.type: Input should be 'object'")
  const properties = node.properties
  if (typeof properties === 'object' && properties !== null) {
    for (const key of Object.keys(properties)) {
      if (!PROPERTY_KEY.test(key)) {
        problems.push(
          `input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$' (${JSON.stringify(key)})`,
        )
      }
    }
  }
  return problems
}
