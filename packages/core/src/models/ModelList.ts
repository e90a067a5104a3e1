import { Schema } from "effect"

/** One entry of `list_models` (MCP seed "Model information"): a model, an alias, or a wildcard. */
export const ModelEntry = Schema.Struct({
  id: Schema.String.annotations({ description: "The model as a definition names it, or an alias as written." }),
  object: Schema.Literal("model"),
  created: Schema.Number.annotations({ description: "When the provider released or added it, in seconds; 0 unsaid." }),
  owned_by: Schema.String.annotations({ description: "The provider prefix that serves it." }),
  name: Schema.optional(Schema.String),
  context_window: Schema.optional(Schema.Number),
  max_tokens: Schema.optional(Schema.Number),
  alias: Schema.optional(Schema.Literal(true)),
  resolved_to: Schema.optional(Schema.String),
  pattern: Schema.optional(Schema.Literal(true))
}).annotations({ identifier: "ModelEntry" })
export type ModelEntry = typeof ModelEntry.Type

/** The result of `list_models`: the entries sorted by id, whether every list was read, whether it is narrowed. */
export const ModelList = Schema.Struct({
  object: Schema.Literal("list"),
  data: Schema.Array(ModelEntry),
  catalog_status: Schema.Literal("complete", "partial"),
  narrowed: Schema.Boolean,
  listed_at: Schema.String
}).annotations({ identifier: "ModelList" })
export type ModelList = typeof ModelList.Type
