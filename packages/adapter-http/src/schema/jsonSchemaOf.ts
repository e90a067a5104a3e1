import { JSONSchema, type Schema } from "effect"

/** A JSON Schema (2020-12) as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown }

/** Drops the relative `$id`s effect gives `unknown` and `{}` (`/schemas/unknown`), which would clash once nested. */
const withoutRelativeIds = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutRelativeIds)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, inner]) => !(key === "$id" && typeof inner === "string" && inner.startsWith("/")))
      .map(([key, inner]) => [key, withoutRelativeIds(inner)])
  )
}

/** The JSON Schema 2020-12 of an effect Schema (its encoded side, as the wire carries it). */
export const jsonSchemaOf = (schema: Schema.Schema<any, any>): JsonSchema =>
  withoutRelativeIds(JSONSchema.make(schema, { target: "jsonSchema2020-12" })) as JsonSchema
