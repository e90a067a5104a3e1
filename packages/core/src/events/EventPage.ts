import { Schema } from "effect"
import { pageFields } from "../paging/pageFields.js"
import { PlaybookEvent } from "./PlaybookEvent.js"

/** A page of events, with has_more and next_cursor on the page. */
export const EventPage = Schema.Struct({ events: Schema.Array(PlaybookEvent), ...pageFields }).annotations({
  identifier: "EventPage"
})

/** The most stored bytes a page loads before it stops (HTTP "Paging"). */
export const pageBytesBound = 4 * 1024 * 1024
