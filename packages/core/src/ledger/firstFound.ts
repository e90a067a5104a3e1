import { type Duration, Effect, Fiber, Option, Stream } from "effect"
import { Ledger, type LedgerWakeup } from "../ports/Ledger.js"

/**
 * What `look` finds first: it looks once, then again at each wake-up `wakes` keeps for at most `wait`, listening
 * before its first look, so nothing recorded between the two goes unheard. `Some(Some(found))` once found;
 * `Some(None)` when the wake-ups end first (the store's scope closes as the runtime stops); `None` when `wait`
 * passes first (never with an infinite `wait`).
 */
export const firstFound = <A, E, R>(
  wakes: (wakeup: LedgerWakeup) => boolean,
  look: Effect.Effect<Option.Option<A>, E, R>,
  wait: Duration.DurationInput
): Effect.Effect<Option.Option<Option.Option<A>>, E, R | Ledger> =>
  Effect.scoped(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const listener = yield* ledger.wakeups.pipe(
        Stream.filter(wakes),
        Stream.mapEffect(() => look),
        Stream.filterMap((found) => found),
        Stream.runHead,
        Effect.forkScoped
      )
      yield* Effect.yieldNow()
      const first = yield* look
      if (Option.isSome(first)) return Option.some(first)
      return yield* Fiber.join(listener).pipe(Effect.timeoutOption(wait))
    })
  )
