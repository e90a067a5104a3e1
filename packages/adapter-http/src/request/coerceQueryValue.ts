import { type InputFields, resolveRef } from "../schema/inputFields.js"
import type { JsonSchema } from "../schema/jsonSchemaOf.js"

/** The JSON types a field's schema admits, through references and `anyOf`/`oneOf`. */
const typesOf = (schema: JsonSchema, defs: InputFields["defs"]): ReadonlySet<string> => {
  const resolved = resolveRef(schema, defs)
  const own = resolved.type === undefined ? [] : ([] as Array<string>).concat(resolved.type as string | Array<string>)
  const branches = [...((resolved.anyOf ?? []) as Array<JsonSchema>), ...((resolved.oneOf ?? []) as Array<JsonSchema>)]
  return new Set([...own, ...branches.flatMap((branch) => [...typesOf(branch, defs)])])
}

const numeral = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

/**
 * A query string value as the field's JSON type reads it: `true`/`false` for a boolean, a numeral for an integer or
 * a number; any other value stays text, for the input's decoding to refuse at the field's pointer.
 */
export const coerceQueryValue = (value: string, field: JsonSchema | undefined, defs: InputFields["defs"]): unknown => {
  if (field === undefined) return value
  const types = typesOf(field, defs)
  if (types.has("string")) return value
  if (types.has("boolean") && (value === "true" || value === "false")) return value === "true"
  if ((types.has("integer") || types.has("number")) && numeral.test(value)) return Number(value)
  return value
}
