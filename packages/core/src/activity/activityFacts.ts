import type { ActivityPosition } from "./ActivityPosition.js"

/** An item a caller marked seen: its address and its time as the row gave them. */
export interface MarkedItem {
  readonly address: string
  readonly at: string
}

/** `activity_seen`: what one mark_activity_seen recorded, the items and the place marked seen through. */
export interface ActivitySeen {
  readonly items: ReadonlyArray<MarkedItem>
  readonly through: ActivityPosition | null
}

/** The stream of what a caller marked seen in an org: `org/<org>/callers/<caller id>/activity`. */
export const activityStream = (org: string, caller: string): string => `org/${org}/callers/${caller}/activity`

/** The org and caller of an activity stream, or undefined for any other stream. */
export const callerOfStream = (stream: string): { readonly org: string; readonly caller: string } | undefined => {
  const segments = stream.split("/")
  return segments.length >= 5 && segments[0] === "org" && segments[2] === "callers" && segments.at(-1) === "activity"
    ? { org: segments[1], caller: segments.slice(3, -1).join("/") }
    : undefined
}
