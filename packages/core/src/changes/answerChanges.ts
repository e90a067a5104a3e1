import { Duration, Effect, Either } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import type { Ledger } from "../ports/Ledger.js"
import type { Change, ChangesAnswer } from "./Change.js"
import type { ChangeFeed } from "./ChangeFeed.js"
import { decodeChangesCursor, encodeChangesCursor } from "./ChangesCursor.js"
import type { ChangesInput } from "./ChangesInput.js"
import { checkHeld, cursorOfNow } from "./feedCursor.js"
import { holdChanges } from "./holdChanges.js"

/** How long a request is held when `wait` is left out, in seconds. */
const defaultWait = 25

/**
 * A changes route's answer: without `since` the cursor of now at once; with it, what changed after it, held until
 * something changes or `wait` passes. A cursor the ledger does not hold is refused as cursor_not_held.
 */
export const answerChanges = <C extends Change>(
  feed: ChangeFeed<C>,
  input: ChangesInput
): Effect.Effect<ChangesAnswer<C>, Rejection, Ledger> =>
  Effect.gen(function* () {
    if (input.since === undefined)
      return { cursor: encodeChangesCursor(feed.scope, yield* cursorOfNow(feed)), changes: [], more: false }
    const from = decodeChangesCursor(feed.scope, input.since)
    if (Either.isLeft(from)) return yield* Effect.fail(from.left)
    yield* checkHeld(feed, from.right)
    return yield* holdChanges(feed, input.since, from.right, Duration.seconds(input.wait ?? defaultWait))
  })
