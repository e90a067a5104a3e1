import { Effect, Option } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Ledger } from "../ports/Ledger.js"
import type { ChangeFeed } from "./ChangeFeed.js"
import { type ChangesCursor, cursorNotHeld } from "./ChangesCursor.js"

/** The cursor of now: the feed's latest fact in the global order, and its stream's version. */
export const cursorOfNow = (feed: ChangeFeed): Effect.Effect<ChangesCursor, Rejection, Ledger> =>
  storeToRejection(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const [latest] = yield* ledger
        .readAll({ direction: "backward", limit: 1, filter: feed.filter })
        .pipe(Effect.catchTag("InvalidPosition", Effect.die))
      const version = feed.stream === undefined ? undefined : yield* ledger.streamVersion(feed.stream)
      return {
        position: latest?.position ?? null,
        fact: latest?.fact.id ?? null,
        ...(version === undefined ? {} : { version })
      }
    })
  )

/**
 * Refuses a cursor the ledger does not hold: one whose fact this ledger does not have at that position or outside
 * the feed, or whose stream version the stream has not reached (a cursor of another database).
 */
export const checkHeld = (feed: ChangeFeed, cursor: ChangesCursor): Effect.Effect<void, Rejection, Ledger> =>
  storeToRejection(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      if ((cursor.position === null) !== (cursor.fact === null)) return yield* Effect.fail(cursorNotHeld())
      if (cursor.fact !== null) {
        const found = yield* ledger.readFact(cursor.fact)
        const held = Option.exists(
          found,
          ({ fact, position }) =>
            position === cursor.position && fact.metadata.stream.startsWith(feed.filter.streamPrefix)
        )
        if (!held) return yield* Effect.fail(cursorNotHeld())
      }
      if ((feed.stream === undefined) !== (cursor.version === undefined)) return yield* Effect.fail(cursorNotHeld())
      if (feed.stream !== undefined && (cursor.version ?? 0) > (yield* ledger.streamVersion(feed.stream)))
        return yield* Effect.fail(cursorNotHeld())
    })
  )
