import { Effect, Queue } from "effect"
import type { LedgerWakeup } from "../ports/Ledger.js"
import { HostWakeups } from "./HostWakeups.js"

/**
 * Runs the handler `handlerOf` gives each wake-up it keeps (undefined for one it leaves), at most `concurrency` at
 * once (the next kept wake-up waits for a place, in order), until interrupted. `handlerOf` is called as each
 * wake-up is read (`HostWakeups`), so a wake-up it leaves costs that call and no effect at all: most appends
 * concern no host (ADR 0239, 0298).
 */
export const eachWakeup = <R>(
  handlerOf: (wakeup: LedgerWakeup) => Effect.Effect<void, never, R> | undefined,
  concurrency: number
): Effect.Effect<never, never, R | HostWakeups> =>
  Effect.scoped(
    Effect.gen(function* () {
      const places = yield* Effect.makeSemaphore(concurrency)
      const scope = yield* Effect.scope
      const kept = yield* Queue.unbounded<Effect.Effect<void, never, R>>()
      yield* Effect.flatMap(HostWakeups, (wakeups) =>
        wakeups.listen((wakeup) => {
          const handler = handlerOf(wakeup)
          if (handler !== undefined) Queue.unsafeOffer(kept, handler)
        })
      )
      const start = (handler: Effect.Effect<void, never, R>) =>
        Effect.zipRight(places.take(1), Effect.forkIn(Effect.ensuring(handler, places.release(1)), scope))
      return yield* Effect.forever(Effect.flatMap(Queue.take(kept), start))
    })
  )
