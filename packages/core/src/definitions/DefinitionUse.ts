import { Schema } from "effect"
import { DefinitionType } from "./DefinitionType.js"

/** A workflow's call step that names a definition: its place among the workflow's tasks (from 1), and its name. */
export const UsingStep = Schema.Struct({ number: Schema.Number, name: Schema.String })

/**
 * What a version uses of its playbook, as its save read it: a workflow `calls` the definitions its run_definition
 * steps name literally, with those steps; a lookup `reads` the runs of the definition its `runs` names. `used_by`
 * is read from these (ADR 0015).
 */
export const DefinitionUse = Schema.Struct({
  type: DefinitionType,
  name: Schema.String,
  relation: Schema.Literal("calls", "reads"),
  steps: Schema.optional(Schema.Array(UsingStep))
})
export type DefinitionUse = typeof DefinitionUse.Type
