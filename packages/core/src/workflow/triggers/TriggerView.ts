import { Schema } from "effect"
import type { Trigger } from "../../formats/workflow/Trigger.js"

/** One filter of an event trigger as a definition shows it: its reference, its type and its other attributes. */
export const TriggerFilterView = Schema.Struct({
  reference: Schema.String,
  type: Schema.String,
  /** The attributes besides `type`, as written: literal values, and expressions as `${ … }`. */
  attributes: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})

/** A trigger of a workflow as `get_definition` and `list_definitions` show it (workflow-format.md §12.6). */
export const TriggerView = Schema.Union(
  Schema.Struct({
    kind: Schema.Literal("event"),
    reference: Schema.Literal("/schedule/on"),
    filters: Schema.Array(TriggerFilterView)
  }),
  Schema.Struct({
    kind: Schema.Literal("cron"),
    reference: Schema.Literal("/schedule/cron"),
    expression: Schema.String,
    time_zone: Schema.optional(Schema.String)
  }),
  Schema.Struct({
    kind: Schema.Literal("every"),
    reference: Schema.Literal("/schedule/every"),
    milliseconds: Schema.Number
  })
).annotations({ identifier: "Trigger" })
export type TriggerView = typeof TriggerView.Type

/** A schedule trigger as shown: `cron` or `every`. */
export type ScheduleTriggerView = Exclude<TriggerView, { kind: "event" }>

/** How a document's trigger is shown and kept in a version's facts. */
export const triggerViewOf = (trigger: Trigger): TriggerView => {
  switch (trigger.kind) {
    case "event":
      return {
        kind: "event",
        reference: trigger.reference,
        filters: trigger.filters.map((filter) => ({
          reference: filter.reference,
          type: filter.type,
          attributes: Object.fromEntries(
            filter.attributes
              .filter(([name]) => name !== "type")
              .map(([name, value]) => [name, value._tag === "Literal" ? value.value : `\${ ${value.source} }`])
          )
        }))
      }
    case "cron":
      return {
        kind: "cron",
        reference: trigger.reference,
        expression: trigger.expression,
        ...(trigger.timeZone === undefined ? {} : { time_zone: trigger.timeZone })
      }
    case "every":
      return { kind: "every", reference: trigger.reference, milliseconds: trigger.milliseconds }
  }
}
