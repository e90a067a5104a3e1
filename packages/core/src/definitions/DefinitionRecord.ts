import { Schema } from "effect"
import { CallerReference } from "../domain/Caller.js"
import { TriggerView } from "../workflow/triggers/TriggerView.js"
import { DefinitionType } from "./DefinitionType.js"
import { DefinitionUse } from "./DefinitionUse.js"

/** A definition as it stands: its latest version, its status and who did what, as the definition view holds it. */
export const DefinitionRecord = Schema.Struct({
  type: DefinitionType,
  name: Schema.String,
  version: Schema.Number,
  status: Schema.Literal("active", "paused", "retired"),
  description: Schema.optional(Schema.String),
  source: Schema.String,
  overview: Schema.optional(Schema.String),
  diagram: Schema.optional(Schema.String),
  input_schema: Schema.optional(Schema.Unknown),
  output_schema: Schema.optional(Schema.Unknown),
  details: Schema.optional(Schema.Struct({ shape: Schema.String })),
  warnings: Schema.optional(Schema.Array(Schema.String)),
  /** A workflow's triggers in document order (workflow-format.md §12.6). */
  triggers: Schema.optional(Schema.Array(TriggerView)),
  /** The id of the record that saved the current version of a workflow with triggers; shown while active. */
  triggers_since: Schema.optional(Schema.String),
  created_at: Schema.String,
  created_by: CallerReference,
  updated_at: Schema.String,
  paused_at: Schema.optional(Schema.String),
  paused_by: Schema.optional(CallerReference),
  paused_reason: Schema.optional(Schema.String),
  retired_at: Schema.optional(Schema.String),
  finishes_later: Schema.Boolean,
  calls_tools: Schema.Boolean,
  /** What the current version calls or reads the runs of; kept for `used_by`, never shown (ADR 0015). */
  uses: Schema.optional(Schema.Array(DefinitionUse))
}).annotations({ identifier: "DefinitionRecord" })
export type DefinitionRecord = typeof DefinitionRecord.Type

const { uses: _uses, ...shownFields } = DefinitionRecord.fields

/** A definition as create, get, update, pause, resume, retire and restore return it. */
export const Definition = Schema.Struct({
  ...shownFields,
  used_by: Schema.optional(Schema.Array(DefinitionUse)),
  studio: Schema.optional(Schema.String)
}).annotations({ identifier: "Definition" })
export type Definition = typeof Definition.Type

/** A definition as list_definitions shows it: without overview, diagram, used_by and source. */
export const ListedDefinition = DefinitionRecord.pipe(
  Schema.omit("overview", "diagram", "source", "triggers_since", "uses")
).annotations({
  identifier: "ListedDefinition"
})
