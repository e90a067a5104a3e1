import { directoryHiddenTypes, type Operation, PlaybookId } from "@runledger/core"
import { JSONSchema, SchemaAST } from "effect"
import { inlineRefs, type JsonSchema } from "./inlineRefs.js"

/** The name of the argument that names the playbook a tool acts in, on endpoints whose path names none. */
export const playbookArgument = "playbook"

/** The `playbook` argument's schema: the playbook id's rules, in words for an agent. */
const playbookSchema: JsonSchema = {
  ...inlineRefs(JSONSchema.make(PlaybookId)),
  description: "The id of the playbook this tool acts in, as list_playbooks lists it."
}

/** Whether a schema is an object with no fields (Effect writes `Schema.Struct({})` as "an object or an array"). */
const isEmptyStruct = (ast: SchemaAST.AST): boolean =>
  SchemaAST.isTypeLiteral(ast) && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0

/** The self-contained JSON Schema of an operation's input, an object as MCP clients expect. */
const objectSchemaOf = (operation: Operation): JsonSchema => {
  if (isEmptyStruct(operation.input.ast)) return { type: "object", properties: {}, additionalProperties: false }
  const schema = inlineRefs(JSONSchema.make(operation.input))
  if (schema.type !== "object")
    throw new TypeError(`The input of ${operation.name} is not an object, so it cannot be an MCP tool's arguments.`)
  return schema
}

/** The schema without the definition types the directory listing leaves out of a `type` argument. */
const withoutHiddenTypes = (schema: JsonSchema): JsonSchema => {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const type = properties.type
  if (type === undefined || !Array.isArray(type.enum)) return schema
  return {
    ...schema,
    properties: {
      ...properties,
      type: { ...type, enum: type.enum.filter((value: unknown) => !directoryHiddenTypes.includes(value as never)) }
    }
  }
}

/**
 * The JSON Schema of a tool's arguments: the operation's input (on the directory listing without the definition
 * types it leaves out), and where the tool acts in a playbook the path does not name, a required `playbook`
 * argument first.
 */
export const inputSchemaOf = (operation: Operation, withPlaybook: boolean, onDirectory = false): JsonSchema => {
  const schema = onDirectory ? withoutHiddenTypes(objectSchemaOf(operation)) : objectSchemaOf(operation)
  if (!withPlaybook) return schema
  const properties = (schema.properties ?? {}) as JsonSchema
  const required = (schema.required ?? []) as ReadonlyArray<string>
  return {
    ...schema,
    properties: { [playbookArgument]: playbookSchema, ...properties },
    required: [playbookArgument, ...required.filter((name) => name !== playbookArgument)]
  }
}
