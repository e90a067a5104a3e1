import { Schema } from "effect"

/** The definition a fact is about or a run carries out. */
export const FactDefinition = Schema.Struct({
  type: Schema.String,
  name: Schema.String,
  version: Schema.optional(Schema.Number)
})

/** Where a fact is recorded, when, who acted, and the chain it belongs to (HTTP "Event fields"). */
export const FactMetadata = Schema.Struct({
  stream: Schema.String,
  position: Schema.Number,
  global_position: Schema.Number,
  correlation_id: Schema.NullOr(Schema.String),
  causation_id: Schema.NullOr(Schema.String),
  at: Schema.String,
  by: Schema.String,
  run_id: Schema.optional(Schema.String),
  definition: Schema.optional(FactDefinition),
  called_by: Schema.optional(Schema.Unknown),
  call_depth: Schema.optional(Schema.Number),
  depth: Schema.optional(Schema.Number),
  trigger: Schema.optional(Schema.Unknown),
  acts_for: Schema.optional(Schema.String),
  trace_id: Schema.optional(Schema.String),
  span_id: Schema.optional(Schema.String),
  /**
   * On a run's endings and on the start of each later attempt: when the run first started, so the analytics view
   * files the ending under that day (ADR 0178). Kept for the read models; an event does not show it.
   */
  first_started_at: Schema.optional(Schema.String)
})
export type FactMetadata = typeof FactMetadata.Type

/** A fact on the ledger: exactly the event the history routes return, less its rendered summary. */
export const Fact = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  data: Schema.Unknown,
  metadata: FactMetadata
})
export type Fact = typeof Fact.Type

/** The metadata a writer gives; the ledger fills in stream, position and global_position. */
export type NewFactMetadata = Omit<FactMetadata, "stream" | "position" | "global_position">

/** A fact as a command handler decides it, before the ledger places it. */
export interface NewFact {
  readonly id: string
  readonly type: string
  readonly data: unknown
  readonly metadata: NewFactMetadata
}
