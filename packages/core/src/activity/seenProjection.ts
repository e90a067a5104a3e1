import type { Projection } from "../ports/Views.js"
import { type ActivityPosition, comparePositions } from "./ActivityPosition.js"
import { type ActivitySeen, callerOfStream } from "./activityFacts.js"

/** The view of what each caller marked seen: partition the org, one document per caller id. */
export const seenView = "activity_seen"

/** How many marks a caller keeps: those of the 1,000 items newest in the activity after their through. */
export const marksBound = 1_000

/** Where a caller marked everything seen, and when. */
export interface SeenThrough {
  readonly position: ActivityPosition
  readonly seen_at: string
}

/** What a caller has seen: their through, or null before they first sent one, and their marks after it. */
export interface SeenState {
  readonly through: SeenThrough | null
  readonly marks: ReadonlyArray<ActivityPosition>
}

/** A caller who never marked anything. */
export const nothingSeen: SeenState = { through: null, marks: [] }

/**
 * Folds `activity_seen` into a caller's seen state: a through later than theirs replaces it (through never moves
 * back); marks join theirs, those at or before the through drop, and the newest 1,000 stay.
 */
export const seenProjection: Projection = {
  view: seenView,
  types: ["activity_seen"],
  keys: (fact) => {
    const found = callerOfStream(fact.metadata.stream)
    return found === undefined ? [] : [{ view: seenView, partition: found.org, id: found.caller }]
  },
  apply: (current, fact, key) => {
    const state = (current?.data as SeenState | undefined) ?? nothingSeen
    const seen = fact.data as Partial<ActivitySeen> | null
    const through =
      seen?.through != null && (state.through === null || comparePositions(seen.through, state.through.position) > 0)
        ? { position: seen.through, seen_at: fact.metadata.at }
        : state.through
    const byPlace = new Map<string, ActivityPosition>()
    for (const mark of [
      ...state.marks,
      ...(seen?.items ?? []).map((item) => ({ at: Date.parse(item.at), address: item.address }))
    ])
      if (through === null || comparePositions(mark, through.position) > 0)
        byPlace.set(`${mark.at} ${mark.address}`, mark)
    const marks = [...byPlace.values()].sort((a, b) => comparePositions(b, a)).slice(0, marksBound)
    const next: SeenState = { through, marks }
    return { id: key.id, sort: key.id, data: next }
  }
}
