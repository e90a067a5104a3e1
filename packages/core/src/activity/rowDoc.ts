import type { ViewDoc } from "../ports/Views.js"
import type { ActivityItem } from "./ActivityRow.js"

/**
 * The sort key of a document the activity keeps but does not list (a run not yet ended, a resolved comment, a
 * definition that is not broken): below every time, so a newest-first read meets the listed rows first.
 */
export const heldSort = "0"

/** Whether a document of an activity view is a listed row. */
export const isListed = (doc: ViewDoc): boolean => doc.sort !== heldSort

/** A time in its one written form, ISO 8601 UTC with milliseconds, which sorts as it reads. */
export const isoOf = (at: string | number): string =>
  new Date(typeof at === "number" ? at : Date.parse(at)).toISOString()

/** The document of a listed item: its address as id, its time as sort key. */
export const listedDoc = (item: ActivityItem): ViewDoc => ({ id: item.address, sort: isoOf(item.at), data: item })

/** A document kept for later facts but not listed. */
export const heldDoc = (id: string, data: unknown): ViewDoc => ({ id, sort: heldSort, data })
