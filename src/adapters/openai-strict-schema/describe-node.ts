export function describe(
  result: Record<string, unknown>,
  node: Record<string, unknown>,
  notes: string[],
): void {
  const own = typeof node.description === 'string' && node.description !== '' ? node.description : undefined
  const parts = [own, ...notes].filter((part): part is string => part !== undefined)
  if (parts.length === 0) return
  result.description = parts
    .map((part, index) =>
      index < parts.length - 1 && !/[.!?:]$/.test(part.trim()) ? `${part.trim()}.` : part,
    )
    .join(' ')
}

// A dropped keyword's value as a short note for the model; structures are left out (they read as noise).
export function noteText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length <= 200 ? value : undefined
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value === null) return 'null'
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    const text = JSON.stringify(value)
    return text.length <= 200 ? text : undefined
  }
  return undefined
}

export function sentenceCase(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
