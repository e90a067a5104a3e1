/** The TypeScript type of any JSON value, given to every computation program. */
export const jsonType = "type Json = null | boolean | number | string | Json[] | { [key: string]: Json };"

type Schema = Readonly<Record<string, unknown>>

/** A definition's name as part of an identifier: characters illegal in identifiers become `$<codepoint>$`. */
const identifierPart = (name: string) =>
  [...name].map((character) => (/[A-Za-z0-9_]/.test(character) ? character : `$${character.codePointAt(0)}$`)).join("")

const refName = (root: string, ref: string) =>
  `${root}_${identifierPart(
    ref
      .slice(ref.lastIndexOf("/") + 1)
      .replaceAll("~1", "/")
      .replaceAll("~0", "~")
  )}`

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const objectType = (schema: Schema, root: string): string => {
  const properties = isSchema(schema.properties) ? schema.properties : undefined
  const required = Array.isArray(schema.required) ? schema.required : []
  const extra = schema.additionalProperties
  if (properties === undefined)
    return `{ [key: string]: ${extra === undefined || extra === true ? "Json" : typeOf(extra, root)} }`
  const members = Object.entries(properties).map(
    ([key, value]) => `${JSON.stringify(key)}${required.includes(key) ? "" : "?"}: ${typeOf(value, root)}`
  )
  if (extra === true || isSchema(extra)) members.push("[key: string]: Json")
  return `{ ${members.join("; ")} }`
}

const arrayType = (schema: Schema, root: string): string => {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined
  if (tuple === undefined) return `Array<${typeOf(schema.items ?? true, root)}>`
  const rest = Array.isArray(schema.items) || schema.items === undefined ? true : schema.items
  const restType = rest === false ? "" : `, ...Array<${typeOf(rest, root)}>`
  return `[${tuple.map((item) => typeOf(item, root)).join(", ")}${restType}]`
}

const byType = (schema: Schema, root: string): string | undefined => {
  const named = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : undefined
  const types =
    named ??
    ("properties" in schema || "additionalProperties" in schema
      ? ["object"]
      : "items" in schema || "prefixItems" in schema
        ? ["array"]
        : undefined)
  if (types === undefined) return undefined
  return types
    .map((type) => {
      switch (type) {
        case "integer":
        case "number":
          return "number"
        case "string":
        case "boolean":
        case "null":
          return type
        case "array":
          return arrayType(schema, root)
        case "object":
          return objectType(schema, root)
        default:
          return "never"
      }
    })
    .join(" | ")
}

/**
 * The TypeScript type of a JSON Schema (function-formats.md §4.1): objects with `properties` closed unless
 * `additionalProperties` opens them, objects without as records of `Json`, `enum`/`const` as literals,
 * `anyOf`/`oneOf` as unions, `allOf` as intersections, `$ref` as the definition's named type `<Root>_<name>`.
 * Bounds and formats are left to the schema check at run time.
 */
export const typeOf = (schema: unknown, root: string): string => {
  if (schema === false) return "never"
  if (!isSchema(schema)) return "Json"
  const parts: Array<string> = []
  if (typeof schema.$ref === "string") parts.push(refName(root, schema.$ref))
  if ("const" in schema) parts.push(JSON.stringify(schema.const))
  else if (Array.isArray(schema.enum))
    parts.push(schema.enum.map((value) => JSON.stringify(value)).join(" | ") || "never")
  else {
    const typed = byType(schema, root)
    if (typed !== undefined) parts.push(typed)
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const members = schema[keyword]
    if (Array.isArray(members)) parts.push(members.map((member) => `(${typeOf(member, root)})`).join(" | ") || "never")
  }
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((member) => typeOf(member, root)))
  return parts.length === 0 ? "Json" : parts.length === 1 ? parts[0]! : parts.map((part) => `(${part})`).join(" & ")
}

/** The named types of a schema's root and its `$defs`/`definitions`, as declarations. */
const declarationsOf = (root: string, schema: unknown): ReadonlyArray<string> => {
  const defs = isSchema(schema)
    ? ["$defs", "definitions"].flatMap((kind) => (isSchema(schema[kind]) ? Object.entries(schema[kind] as Schema) : []))
    : []
  return [
    `type ${root} = ${typeOf(schema ?? true, root)};`,
    ...defs.map(([name, def]) => `type ${root}_${identifierPart(name)} = ${typeOf(def, root)};`)
  ]
}

/** The declarations a computation program is checked against: `Json`, `Input` and `Output` (`Json` when absent). */
export const programDeclarations = (inputSchema: unknown, outputSchema: unknown): string =>
  [jsonType, ...declarationsOf("Input", inputSchema), ...declarationsOf("Output", outputSchema)].join("\n")
