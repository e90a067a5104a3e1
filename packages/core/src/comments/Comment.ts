import { Schema } from "effect"
import { Timestamp } from "../domain/Ids.js"
import { Anchor, ResolveHow } from "./commentFields.js"

/** A comment as the ledger folds it and the `comments` view keeps it (HTTP "A comment"), without its Studio link. */
export const CommentState = Schema.Struct({
  id: Schema.String,
  address: Schema.String,
  text: Schema.String,
  anchor: Schema.NullOr(Anchor),
  by: Schema.String,
  by_name: Schema.String,
  at: Timestamp,
  open: Schema.Boolean,
  resolved_at: Schema.NullOr(Timestamp),
  resolved_by: Schema.NullOr(Schema.String),
  resolved_how: Schema.NullOr(ResolveHow),
  reopened_at: Schema.NullOr(Timestamp),
  reopened_by: Schema.NullOr(Schema.String)
})
export type CommentState = typeof CommentState.Type

/** A comment as every comment operation answers it: its state and its place in Studio, where Studio opens it. */
export const Comment = Schema.extend(
  CommentState,
  Schema.Struct({
    studio: Schema.optional(
      Schema.String.annotations({
        description: "The comment's place in Studio; left out where Studio would not open it."
      })
    )
  })
).annotations({ identifier: "Comment", title: "Comment" })
export type Comment = typeof Comment.Type
