import { Schema } from "effect"
import { type ActivityKind, activityKinds } from "./ActivityRow.js"

/** `limit` of list_activity: 1 to 200 rows a page, 50 when left out. */
export const ActivityLimit = Schema.Int.pipe(
  Schema.between(1, 200, { message: () => "must be a whole number from 1 to 200" }),
  Schema.annotations({ description: "How many rows a page holds, 1 to 200; 50 when left out." })
)

/** The default page size of list_activity. */
export const defaultActivityLimit = 50

/** The kinds a `kind` text names, or undefined where one of them is no kind. */
export const kindsOf = (text: string): ReadonlyArray<ActivityKind> | undefined => {
  const named = text.split(",")
  return named.every((kind) => (activityKinds as ReadonlyArray<string>).includes(kind))
    ? (named as ReadonlyArray<ActivityKind>)
    : undefined
}

/** list_activity's input; over HTTP it comes in the query string. */
export const ListActivityInput = Schema.Struct({
  kind: Schema.optional(
    Schema.String.pipe(
      Schema.filter(
        (text) =>
          kindsOf(text) !== undefined || "must be needs_you, broken, new or comment, or several separated by commas",
        { jsonSchema: { pattern: "^(needs_you|broken|new|comment)(,(needs_you|broken|new|comment))*$" } }
      ),
      Schema.annotations({
        description:
          "One kind of row, or several separated by commas, such as needs_you,broken: needs_you, broken, new or comment."
      })
    )
  ),
  playbook: Schema.optional(
    Schema.String.annotations({
      description:
        "Keep the rows of one playbook, which leaves out the organization's own comments. A caller who may access only some playbooks names one."
    })
  ),
  mine: Schema.optional(
    Schema.Boolean.annotations({
      description:
        "true keeps, of the new and comment rows, those whose by is the caller, and leaves the other kinds as they are; false when left out."
    })
  ),
  since: Schema.optional(Schema.String.annotations({ description: "A row's cursor: keep the rows newer than it." })),
  limit: Schema.optional(ActivityLimit),
  cursor: Schema.optional(Schema.String.annotations({ description: "The next_cursor of the page before." }))
})
export type ListActivityInput = typeof ListActivityInput.Type

/** One item marked seen: its address and its at, as the row gives them. */
export const MarkedItemInput = Schema.Struct({
  address: Schema.String.annotations({ description: "The row's address." }),
  at: Schema.String.annotations({ description: "The row's at, ISO 8601 UTC." })
})

/** mark_activity_seen's input: the rows seen, a place to mark everything seen through, or both. */
export const MarkActivitySeenInput = Schema.Struct({
  items: Schema.optional(
    Schema.Array(MarkedItemInput).pipe(
      Schema.maxItems(200, { message: () => "holds at most 200 items; mark the rest in another request" }),
      Schema.annotations({ description: "The new and comment rows the caller has seen, at most 200." })
    )
  ),
  through: Schema.optional(
    Schema.String.annotations({ description: "A row's cursor from a read: everything at or before it is seen." })
  )
})
export type MarkActivitySeenInput = typeof MarkActivitySeenInput.Type
