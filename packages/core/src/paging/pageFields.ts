import { Schema } from "effect"

/** `limit`: 1 to 100 items a page, 20 when left out (HTTP "Paging"). */
export const PageLimit = Schema.Int.pipe(
  Schema.between(1, 100, { message: () => "must be a whole number from 1 to 100" }),
  Schema.annotations({ description: "How many items a page holds, 1 to 100; 20 when left out." })
)

/** `cursor`: the `next_cursor` of the page before. */
export const PageCursor = Schema.String.annotations({ description: "The next_cursor of the page before." })

/** `order` of a listing of events. */
export const EventOrder = Schema.Literal("asc", "desc").annotations({
  description: "asc for oldest first, desc for newest first."
})

/** The default page size. */
export const defaultLimit = 20

/** The fields every page carries, on the page and not on its items. */
export const pageFields = { has_more: Schema.Boolean, next_cursor: Schema.NullOr(Schema.String) }
