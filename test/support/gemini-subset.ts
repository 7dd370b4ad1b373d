// An independent reading of Gemini's Schema subset (an OpenAPI 3.0 subset; the API's documented limits, typed
// nodes included): every problem a lowered schema has, with its path. Empty means the API would accept it.
const allowedKeys = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'propertyOrdering',
  'anyOf',
  'default',
  'example',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'pattern',
])
const types = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object'])
const formats: Record<string, string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
}
const counts = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']

/** Every way `schema` leaves Gemini's Schema subset, each as `path: problem`. */
export function geminiSubsetProblems(schema: unknown, path = 'parameters'): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return [`${path}: not an object`]
  const node = schema as Record<string, unknown>
  const problems: string[] = []
  for (const key of Object.keys(node)) {
    if (!allowedKeys.has(key)) problems.push(`${path}: key "${key}" is outside the subset`)
  }
  if ('anyOf' in node) {
    const others = Object.keys(node).filter((key) => key !== 'anyOf')
    if (others.length > 0) problems.push(`${path}: anyOf beside ${others.join(', ')}`)
    if (!Array.isArray(node.anyOf) || node.anyOf.length < 2) problems.push(`${path}: anyOf needs 2+ branches`)
    else {
      for (const [index, branch] of node.anyOf.entries()) {
        problems.push(...geminiSubsetProblems(branch, `${path}.anyOf[${index}]`))
      }
    }
    return problems
  }
  const type = node.type
  // Gemini answers 400 for a node without a type; only a node that is nothing but an anyOf may omit it.
  if (type === undefined) problems.push(`${path}.type: must be specified`)
  if (type !== undefined && (typeof type !== 'string' || !types.has(type))) {
    problems.push(`${path}: type ${JSON.stringify(type)} is not one of ${[...types].join(', ')}`)
  }
  if (node.format !== undefined) {
    if (typeof type !== 'string' || !(formats[type] ?? []).includes(String(node.format))) {
      problems.push(`${path}: format ${JSON.stringify(node.format)} not allowed on type ${String(type)}`)
    }
  }
  if (node.enum !== undefined) {
    if (type !== 'string') problems.push(`${path}: enum only allowed on type string`)
    if (!Array.isArray(node.enum) || node.enum.length === 0)
      problems.push(`${path}: enum must be a non-empty array`)
    else if (!node.enum.every((value) => typeof value === 'string'))
      problems.push(`${path}: enum values must be strings`)
  }
  for (const key of ['title', 'description', 'pattern']) {
    if (node[key] !== undefined && typeof node[key] !== 'string')
      problems.push(`${path}: ${key} must be a string`)
  }
  if (node.nullable !== undefined && typeof node.nullable !== 'boolean')
    problems.push(`${path}: nullable must be a boolean`)
  for (const key of ['minimum', 'maximum']) {
    if (node[key] !== undefined && !(typeof node[key] === 'number' && Number.isFinite(node[key]))) {
      problems.push(`${path}: ${key} must be a finite number`)
    }
  }
  for (const key of counts) {
    const value = node[key]
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= 0)) {
      problems.push(`${path}: ${key} must be a non-negative integer`)
    }
  }
  if (type === 'array') {
    if (node.items === undefined) problems.push(`${path}: an array needs items`)
  }
  if (node.items !== undefined) {
    if (type !== 'array') problems.push(`${path}: items only on arrays`)
    problems.push(...geminiSubsetProblems(node.items, `${path}.items`))
  }
  const properties = node.properties
  if (properties !== undefined) {
    if (type !== 'object') problems.push(`${path}: properties only on objects`)
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
      problems.push(`${path}: properties must be an object`)
    } else {
      if (Object.keys(properties).length === 0) problems.push(`${path}: properties must not be empty`)
      for (const [name, property] of Object.entries(properties)) {
        problems.push(...geminiSubsetProblems(property, `${path}.properties[${name}]`))
      }
    }
  }
  for (const key of ['required', 'propertyOrdering']) {
    const names = node[key]
    if (names === undefined) continue
    if (!Array.isArray(names) || names.length === 0) {
      problems.push(`${path}: ${key} must be a non-empty array`)
      continue
    }
    const declared = typeof properties === 'object' && properties !== null ? Object.keys(properties) : []
    for (const name of names) {
      if (typeof name !== 'string' || !declared.includes(name)) {
        problems.push(`${path}: ${key} names ${JSON.stringify(name)}, which is not a property`)
      }
    }
    if (new Set(names).size !== names.length) problems.push(`${path}: ${key} has duplicates`)
  }
  return problems
}

/** Problems of a whole `toGemini` result: the wrapper, each declaration, each `parameters`. */
export function geminiToolsProblems(tools: unknown): string[] {
  if (!Array.isArray(tools) || tools.length !== 1) return ['tools: must be exactly one wrapper element']
  const wrapper = tools[0] as { functionDeclarations?: unknown }
  if (!Array.isArray(wrapper.functionDeclarations)) return ['tools[0]: functionDeclarations must be an array']
  return wrapper.functionDeclarations.flatMap((declaration: Record<string, unknown>, index) => {
    const path = `functionDeclarations[${index}]`
    const problems: string[] = []
    const keys = Object.keys(declaration).filter(
      (key) => !['name', 'description', 'parameters'].includes(key),
    )
    if (keys.length > 0) problems.push(`${path}: unexpected keys ${keys.join(', ')}`)
    if (typeof declaration.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(declaration.name)) {
      problems.push(`${path}: bad name ${JSON.stringify(declaration.name)}`)
    }
    if (declaration.parameters !== undefined) {
      const parameters = declaration.parameters as Record<string, unknown>
      if (parameters.type !== 'object') problems.push(`${path}.parameters: root must be type object`)
      if (parameters.properties === undefined) problems.push(`${path}.parameters: present without properties`)
      problems.push(...geminiSubsetProblems(parameters, `${path}.parameters`))
    }
    return problems
  })
}
