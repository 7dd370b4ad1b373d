// An independent reading of OpenAI's strict-mode rules (Structured Outputs' supported schemas): every
// problem a schema sent with `strict: true` has, with its path. Empty means strict mode would accept it.
const supportedKeys = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
])
const types = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
const formats = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
])

type Node = Record<string, unknown>

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Every way `schema` breaks strict mode's rules, each as `path: problem`. */
export function openAIStrictProblems(schema: unknown): string[] {
  const problems: string[] = []
  if (!isNode(schema)) return ['parameters: not an object']
  if (schema.type !== 'object') problems.push('parameters: the root must be type object')
  if ('anyOf' in schema) problems.push('parameters: the root must not be anyOf')
  let properties = 0
  const visit = (node: unknown, path: string, depth: number): void => {
    if (!isNode(node)) {
      problems.push(`${path}: a schema must be an object`)
      return
    }
    if (depth > 10) problems.push(`${path}: more than 10 levels of nesting`)
    for (const key of Object.keys(node)) {
      if (!supportedKeys.has(key)) problems.push(`${path}: '${key}' is not permitted`)
    }
    if (typeof node.$ref === 'string') {
      if (!node.$ref.startsWith('#') || resolve(schema, node.$ref) === undefined) {
        problems.push(`${path}: reference ${node.$ref} does not resolve`)
      }
      return
    }
    if (Array.isArray(node.anyOf)) {
      node.anyOf.forEach((branch, index) => {
        visit(branch, `${path}.anyOf[${index}]`, depth)
      })
      return
    }
    const declared: unknown[] = Array.isArray(node.type)
      ? node.type
      : node.type === undefined
        ? []
        : [node.type]
    if (declared.length === 0 && !('enum' in node) && !('const' in node)) {
      problems.push(`${path}: schema must have a type`)
    }
    for (const type of declared) {
      if (typeof type !== 'string' || !types.has(type))
        problems.push(`${path}: type ${String(type)} is unknown`)
    }
    if (typeof node.format === 'string' && !formats.has(node.format)) {
      problems.push(`${path}: format '${node.format}' is not supported`)
    }
    if (declared.includes('object')) {
      if (node.additionalProperties !== false) {
        problems.push(`${path}: 'additionalProperties' is required to be supplied and to be false`)
      }
      const names = isNode(node.properties) ? Object.keys(node.properties) : []
      properties += names.length
      const required = Array.isArray(node.required) ? node.required : []
      const missing = names.filter((name) => !required.includes(name))
      if (!Array.isArray(node.required) || missing.length > 0) {
        problems.push(
          `${path}: 'required' is required to be supplied and to be an array including every key in properties. Missing ${missing.map((name) => `'${name}'`).join(', ')}`,
        )
      }
      const extra = required.filter((name) => typeof name !== 'string' || !names.includes(name))
      if (extra.length > 0) problems.push(`${path}: 'required' names ${extra.join(', ')}, not in properties`)
      for (const name of names)
        visit((node.properties as Node)[name], `${path}.properties.${name}`, depth + 1)
    }
    if (declared.includes('array')) {
      if (node.items === undefined) problems.push(`${path}: an array needs 'items'`)
      else visit(node.items, `${path}.items`, depth + 1)
    }
  }
  visit(schema, 'parameters', 0)
  for (const key of ['$defs', 'definitions']) {
    const definitions = schema[key]
    if (isNode(definitions)) {
      for (const [name, definition] of Object.entries(definitions)) visit(definition, `${key}.${name}`, 1)
    }
  }
  if (properties > 5000) problems.push(`parameters: ${properties} properties, more than 5000`)
  return problems
}

function resolve(root: unknown, reference: string): unknown {
  let current = root
  for (const raw of reference.slice(1).split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (!isNode(current) || !Object.hasOwn(current, segment)) return undefined
    current = current[segment]
  }
  return current
}
