import { Effect, Option, Schema } from "effect"
import type { Caller } from "../domain/Caller.js"
import { Timestamp } from "../domain/Ids.js"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { ActivityAccess } from "./ActivityAccess.js"
import { activityCursor } from "./ActivityPosition.js"
import type { ActivityItem } from "./ActivityRow.js"
import { countUnseenNew } from "./countUnseenNew.js"
import { readRows } from "./readRows.js"
import { type SeenReader, seenReader } from "./SeenReader.js"
import { nothingSeen, type SeenState, seenView } from "./seenProjection.js"
import { waitsOnCaller } from "./waitsOn.js"

/** What the caller has to look at (HTTP "Seen and counted"). */
export const ActivityCounts = Schema.Struct({
  needs_you: Schema.Number,
  broken: Schema.Number,
  new: Schema.Number,
  comments: Schema.Number
}).annotations({ identifier: "ActivityCounts" })

/** Where the caller marked everything seen, and when; null before they first did. */
export const ActivityThrough = Schema.NullOr(
  Schema.Struct({ cursor: Schema.String, seen_at: Timestamp }).annotations({ identifier: "ActivityThrough" })
)

/** counts and through, the same whatever a read's filters and page. */
export const ActivityStanding = Schema.Struct({ counts: ActivityCounts, through: ActivityThrough })
export type ActivityStanding = typeof ActivityStanding.Type

/** A caller's seen state in an org as the `activity_seen` view keeps it. */
export const readSeenState = (org: string, caller: Caller): Effect.Effect<SeenState, Rejection, Views> =>
  Effect.flatMap(Views, (views) =>
    Effect.map(storeToRejection(views.get({ view: seenView, partition: org, id: caller.id })), (found) =>
      Option.match(found, { onNone: () => nothingSeen, onSome: (doc) => doc.data as SeenState })
    )
  )

/** Whether a request is still open at a time: it is listed until it expires. */
export const stillOpen = (item: ActivityItem, now: number): boolean =>
  item.expires_at === null || Date.parse(item.expires_at) > now

/**
 * The caller's counts and through: the requests that wait on them, the broken definitions, and the new rows and
 * open comments they have not seen, over what they may access. The open rows are read; the new rows are counted
 * from the counts of their times (`countUnseenNew`), so a read costs the same however many runs succeeded.
 */
export const activityStanding = (
  org: string,
  caller: Caller,
  access: ActivityAccess,
  state: SeenState,
  now: number
): Effect.Effect<{ readonly standing: ActivityStanding; readonly reader: SeenReader }, Rejection, Views> =>
  Effect.gen(function* () {
    const reader = seenReader(state, caller, now)
    const open = yield* readRows(org, {
      kinds: ["needs_you", "broken", "comment"],
      keep: (item) => access.visible(item) && stillOpen(item, now)
    })
    const count = (kind: ActivityItem["kind"], keep: (item: ActivityItem) => boolean) =>
      open.filter((item) => item.kind === kind && keep(item)).length
    return {
      reader,
      standing: {
        counts: {
          needs_you: count("needs_you", (item) => waitsOnCaller(item.waits_on, caller)),
          broken: count("broken", () => true),
          new: yield* countUnseenNew(org, caller, access, state, reader),
          comments: count("comment", (item) => !reader.seen(item))
        },
        through:
          state.through === null
            ? null
            : { cursor: activityCursor(org, state.through.position), seen_at: state.through.seen_at }
      }
    }
  })
