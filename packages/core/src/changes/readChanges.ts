import { Effect } from "effect"
import type { Fact } from "../domain/Fact.js"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Ledger, type PositionedFact } from "../ports/Ledger.js"
import { type Change, changeIdentity } from "./Change.js"
import type { ChangeFeed } from "./ChangeFeed.js"
import { type ChangesCursor, cursorNotHeld } from "./ChangesCursor.js"

/** The most resources one answer names (HTTP "Changes"). */
export const changesBound = 200

/** How many facts one read of the global order loads. */
const batchSize = 500

/** After looking at this many facts, an answer that names something stops there and says more. */
const examinedBound = 10_000

/** What changed after a cursor: the resources named, each once, the cursor after them, and whether more changed. */
export interface ChangesRead<C extends Change> {
  readonly changes: ReadonlyArray<C>
  readonly after: ChangesCursor
  readonly more: boolean
}

/**
 * Reads what changed after a cursor, in the order the ledger recorded it: the feed's facts of the global order
 * merged by time with its stream's facts, each resource named once, at most 200, stopping before a fact that would
 * name a 201st.
 */
export const readChanges = <C extends Change>(
  feed: ChangeFeed<C>,
  from: ChangesCursor
): Effect.Effect<ChangesRead<C>, Rejection, Ledger> =>
  storeToRejection(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const own: ReadonlyArray<Fact> =
        feed.stream === undefined ? [] : yield* ledger.readStream(feed.stream, { from: (from.version ?? 0) + 1 })
      const listed = new Map<string, C>()
      let after = from
      let ownIndex = 0
      let loaded: ReadonlyArray<PositionedFact> = []
      let loadedIndex = 0
      let exhausted = false
      let examined = 0
      const answer = (more: boolean): ChangesRead<C> => ({ changes: [...listed.values()], after, more })
      for (;;) {
        if (loadedIndex === loaded.length && !exhausted) {
          loaded = yield* ledger
            .readAll({
              direction: "forward",
              limit: batchSize,
              filter: feed.filter,
              ...(after.position === null ? {} : { from: after.position })
            })
            .pipe(Effect.catchTag("InvalidPosition", () => Effect.fail(cursorNotHeld())))
          loadedIndex = 0
          exhausted = loaded.length < batchSize
        }
        const global = loaded[loadedIndex]
        const beside = own[ownIndex]
        if (global === undefined && beside === undefined) return answer(false)
        if (examined >= examinedBound && listed.size > 0) return answer(true)
        const takeBeside =
          beside !== undefined && (global === undefined || beside.metadata.at <= global.fact.metadata.at)
        const fact = takeBeside ? beside : global.fact
        const fresh = new Map(feed.names(fact).map((change) => [changeIdentity(change), change] as const))
        for (const key of listed.keys()) fresh.delete(key)
        if (listed.size + fresh.size > changesBound) return answer(true)
        for (const [key, change] of fresh) listed.set(key, change)
        examined++
        if (takeBeside) {
          after = { ...after, version: beside.metadata.position }
          ownIndex++
        } else {
          after = { ...after, position: global.position, fact: global.fact.id }
          loadedIndex++
        }
      }
    })
  )
