/** A JSON Schema as plain data. */
export type JsonSchema = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const definitionPrefix = "#/$defs/"

/**
 * A JSON Schema with every `#/$defs/…` reference replaced by its definition, so it stands alone without `$defs`,
 * `$schema` or `$id`. A definition that refers to itself (a recursive schema) keeps its reference and its `$defs` entry.
 */
export const inlineRefs = (schema: object): JsonSchema => {
  const root = schema as JsonSchema
  const definitions = isObject(root.$defs) ? root.$defs : {}
  const kept = new Map<string, JsonSchema>()

  const resolve = (node: unknown, open: ReadonlyArray<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, open))
    if (!isObject(node)) return node
    const { $ref, ...rest } = node
    const resolved = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, resolve(value, open)]))
    if (typeof $ref !== "string" || !$ref.startsWith(definitionPrefix)) return $ref === undefined ? resolved : node
    const name = $ref.slice(definitionPrefix.length)
    const definition = definitions[name]
    if (!isObject(definition)) return node
    if (open.includes(name)) {
      if (!kept.has(name)) kept.set(name, {})
      return { $ref, ...resolved }
    }
    const inlined = resolve(definition, [...open, name]) as JsonSchema
    if (kept.has(name)) kept.set(name, inlined)
    return { ...inlined, ...resolved }
  }

  const { $defs: _definitions, $schema: _dialect, $id: _id, ...body } = root
  const inlined = resolve(body, []) as JsonSchema
  return kept.size === 0 ? inlined : { ...inlined, $defs: Object.fromEntries(kept) }
}
