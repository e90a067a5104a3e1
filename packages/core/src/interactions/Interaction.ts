import { Schema } from "effect"
import { DefinitionType } from "../definitions/DefinitionType.js"

/** How a request stands (HTTP "Listing open requests"): held for an agent, or where its delivery through a tool is. */
export const Standing = Schema.Literal(
  "held_for_an_agent",
  "to_deliver",
  "delivering",
  "delivered",
  "retrying",
  "undelivered",
  "cancelling"
)

/** One open request, as list_interactions shows it: every field of the seed's request table. */
export const Interaction = Schema.Struct({
  run_id: Schema.String,
  type: DefinitionType,
  function: Schema.String,
  version: Schema.Number,
  to: Schema.String,
  delivery: Schema.NullOr(Schema.Struct({ server: Schema.String, tool: Schema.String })),
  message: Schema.String,
  takes_answer: Schema.Boolean,
  answer_schema: Schema.NullOr(Schema.Unknown),
  requested_at: Schema.String,
  expires_at: Schema.String,
  attempts: Schema.Number,
  conversation: Schema.NullOr(Schema.String),
  answerer: Schema.NullOr(Schema.String),
  reply_refusals: Schema.Number,
  standing: Standing
}).annotations({ identifier: "Interaction" })
export type Interaction = typeof Interaction.Type
