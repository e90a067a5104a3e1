import { type Duration, Effect, Option } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { firstFound } from "../ledger/firstFound.js"
import type { Ledger } from "../ports/Ledger.js"
import type { Change, ChangesAnswer } from "./Change.js"
import type { ChangeFeed } from "./ChangeFeed.js"
import { type ChangesCursor, encodeChangesCursor } from "./ChangesCursor.js"
import { readChanges } from "./readChanges.js"

/**
 * The delays of the looks again after a wake-up that found nothing (ADR 0197): about 3.3 s in all, for a fact whose
 * append woke the hold before it passed the global order's horizon.
 */
const horizonSettle = [5, 10, 20, 40, 80, 160, 320, 640, 1_000, 1_000].map((millis) => `${millis} millis` as const)

/**
 * Answers what changed after a cursor, holding the request until something the caller may read changes. It
 * listens to the ledger's wake-ups before its first read, so no append between the two goes unheard, reads again
 * on each wake-up of a stream the feed follows, and a few times more after one that found nothing (ADR 0197). When
 * `wait` passes it reads once more and answers no changes with the cursor it was given if there are none; when the
 * wake-ups end, because the store's scope closes as the runtime stops, it answers that at once. The hold is
 * interruptible even where the caller runs uninterruptibly (an HTTP app does), so the wait, the listener and a
 * client that goes can always stop it.
 */
export const holdChanges = <C extends Change>(
  feed: ChangeFeed<C>,
  since: string,
  from: ChangesCursor,
  wait: Duration.Duration
): Effect.Effect<ChangesAnswer<C>, Rejection, Ledger> =>
  Effect.interruptible(
    Effect.gen(function* () {
      const unchanged: ChangesAnswer<C> = { cursor: since, changes: [], more: false }
      const attempt = Effect.map(readChanges(feed, from), (read) =>
        read.changes.length === 0
          ? Option.none()
          : Option.some<ChangesAnswer<C>>({
              cursor: encodeChangesCursor(feed.scope, read.after),
              changes: read.changes,
              more: read.more
            })
      )
      const heard = yield* firstFound((wakeup) => wakeup.streams.some(feed.wakes), attempt, wait, horizonSettle)
      const answer = Option.isSome(heard) ? heard.value : yield* attempt
      return Option.getOrElse(answer, () => unchanged)
    })
  )
