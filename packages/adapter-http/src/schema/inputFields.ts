import type { Operation } from "@runledger/core"
import { type JsonSchema, jsonSchemaOf } from "./jsonSchemaOf.js"

/** The fields of an operation's input object as its JSON Schema gives them, with the definitions they refer to. */
export interface InputFields {
  readonly properties: Readonly<Record<string, JsonSchema>>
  readonly required: ReadonlyArray<string>
  readonly defs: Readonly<Record<string, JsonSchema>>
}

/** Follows a local `#/$defs/<name>` reference. */
export const resolveRef = (schema: JsonSchema, defs: InputFields["defs"]): JsonSchema => {
  const ref = schema.$ref
  return typeof ref === "string" && ref.startsWith("#/$defs/") ? (defs[ref.slice(8)] ?? schema) : schema
}

/**
 * The fields of an operation's input. Every input is an object whose excess keys are refused; a schema without
 * `properties` (effect's `{}`) has no fields.
 */
export const inputFields = (operation: Operation): InputFields => {
  const schema = jsonSchemaOf(operation.input)
  const defs = (schema.$defs ?? {}) as InputFields["defs"]
  const object = resolveRef(schema, defs)
  return {
    properties: (object.properties ?? {}) as InputFields["properties"],
    required: (object.required ?? []) as ReadonlyArray<string>,
    defs
  }
}
