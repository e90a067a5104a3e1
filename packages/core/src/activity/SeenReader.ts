import type { Caller } from "../domain/Caller.js"
import { type ActivityPosition, comparePositions, positionOf } from "./ActivityPosition.js"
import type { ActivityItem } from "./ActivityRow.js"
import type { SeenState } from "./seenProjection.js"

/** How far back a caller who never sent a through has seen everything: 7 days before the read. */
export const firstReadMillis = 7 * 24 * 60 * 60 * 1000

/** What a caller has seen, as one read applies it. */
export interface SeenReader {
  /** The place at or before which every row is seen: the caller's through, or 7 days before the read. */
  readonly through: ActivityPosition
  /** Whether the caller has seen a new or comment row (HTTP "Seen and counted"). */
  readonly seen: (item: ActivityItem) => boolean
}

/**
 * A caller's seen, at a read: a row is seen when the caller is its `seen_by` (its maker, or who last reopened a
 * comment), when the caller marked it at its time, or when it is at or before their through.
 */
export const seenReader = (state: SeenState, caller: Caller, now: number): SeenReader => {
  const through = state.through?.position ?? { at: now - firstReadMillis, address: "\uffff" }
  const marked = new Set(state.marks.map((mark) => `${mark.at} ${mark.address}`))
  return {
    through,
    seen: (item) => {
      const position = positionOf(item)
      return (
        item.seen_by === caller.id ||
        marked.has(`${position.at} ${position.address}`) ||
        comparePositions(position, through) <= 0
      )
    }
  }
}
