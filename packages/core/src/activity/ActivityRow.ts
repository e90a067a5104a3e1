import { Schema } from "effect"
import { DefinitionType } from "../definitions/DefinitionType.js"
import { Timestamp } from "../domain/Ids.js"

/** The four kinds of row the activity holds (HTTP "The rows"). */
export const ActivityKind = Schema.Literal("needs_you", "broken", "new", "comment")
export type ActivityKind = typeof ActivityKind.Type

/** Every kind, in the seed's order. */
export const activityKinds: ReadonlyArray<ActivityKind> = ActivityKind.literals

/** The definition a row names: its type, name and version. */
export const RowDefinition = Schema.Struct({ type: DefinitionType, name: Schema.String, version: Schema.Number })
export type RowDefinition = typeof RowDefinition.Type

/** The trigger that started a run: its kind and its reference in the document. */
export const RowTrigger = Schema.Struct({ kind: Schema.Literal("event", "cron", "every"), reference: Schema.String })
export type RowTrigger = typeof RowTrigger.Type

/** The fields a row shares with the item the activity keeps, every one present, null where it does not apply. */
const itemFields = {
  kind: ActivityKind,
  address: Schema.String,
  playbook: Schema.NullOr(Schema.String),
  at: Timestamp,
  by: Schema.NullOr(Schema.String),
  by_name: Schema.NullOr(Schema.String),
  change: Schema.NullOr(Schema.Literal("created", "updated")),
  trigger: Schema.NullOr(RowTrigger),
  definition: Schema.NullOr(RowDefinition),
  run_id: Schema.NullOr(Schema.String),
  output_shape: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String),
  answer_schema: Schema.NullOr(Schema.Unknown),
  detail: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.Literal("failed", "rejected")),
  waits_on: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(Timestamp),
  about: Schema.NullOr(Schema.String)
}

const { kind, address, ...described } = itemFields

/** One row of list_activity, every field of the seed's row table, in its order. */
export const ActivityRow = Schema.Struct({
  kind,
  address,
  cursor: Schema.String,
  ...described,
  seen: Schema.NullOr(Schema.Boolean)
}).annotations({ identifier: "ActivityRow" })
export type ActivityRow = typeof ActivityRow.Type

/**
 * An item as the activity's views keep it: the row less its cursor and seen, and `seen_by`, who has seen it from
 * the start (its `by`, or who last reopened a comment). `by` of a request or a broken definition is read from the
 * run at read time, so it is null here.
 */
export type ActivityItem = Schema.Struct.Type<typeof itemFields> & { readonly seen_by: string | null }

/** An item of a kind with every field null but those given. */
export const itemOf = (
  fields: Pick<ActivityItem, "kind" | "address" | "playbook" | "at"> & Partial<ActivityItem>
): ActivityItem => ({
  by: null,
  by_name: null,
  change: null,
  trigger: null,
  definition: null,
  run_id: null,
  output_shape: null,
  message: null,
  answer_schema: null,
  detail: null,
  status: null,
  waits_on: null,
  expires_at: null,
  about: null,
  seen_by: null,
  ...fields
})
