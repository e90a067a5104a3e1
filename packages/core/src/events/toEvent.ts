import type { PlaybookEvent } from "./PlaybookEvent.js"
import { shownData } from "./shownData.js"
import type { DerivedEvent } from "./stepEvents.js"
import { summaryOf } from "./summaryOf.js"

/** An event as a page of events shows it: its data within 4 KiB, with its summary. */
export const pageEvent = (event: DerivedEvent): PlaybookEvent => ({
  id: event.id,
  type: event.type,
  summary: summaryOf(event),
  data: shownData(event.type, event.data),
  metadata: event.metadata
})

/** An event as get_event shows it: every field in full. */
export const fullEvent = (event: DerivedEvent): PlaybookEvent => ({
  id: event.id,
  type: event.type,
  summary: summaryOf(event),
  data: event.data,
  metadata: event.metadata
})
