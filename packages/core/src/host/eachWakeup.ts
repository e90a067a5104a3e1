import { Effect, Stream } from "effect"
import type { LedgerWakeup } from "../ports/Ledger.js"

/**
 * Runs the handler `handlerOf` gives each wake-up it keeps (undefined for one it leaves), at most `concurrency` at
 * once (the next kept wake-up waits for a place, as a bounded stage would), and ends once the wake-ups end and every
 * handler has ended. A wake-up it leaves costs one call of `handlerOf` and no stage of its own: most appends concern
 * no host (ADR 0239).
 */
export const eachWakeup = <R>(
  wakeups: Stream.Stream<LedgerWakeup>,
  handlerOf: (wakeup: LedgerWakeup) => Effect.Effect<void, never, R> | undefined,
  concurrency: number
): Effect.Effect<void, never, R> =>
  Effect.scoped(
    Effect.gen(function* () {
      const places = yield* Effect.makeSemaphore(concurrency)
      const scope = yield* Effect.scope
      const start = (handler: Effect.Effect<void, never, R>) =>
        Effect.zipRight(places.take(1), Effect.forkIn(Effect.ensuring(handler, places.release(1)), scope))
      yield* Stream.runForEachChunk(wakeups, (chunk) => {
        const kept: Array<Effect.Effect<void, never, R>> = []
        for (const wakeup of chunk) {
          const handler = handlerOf(wakeup)
          if (handler !== undefined) kept.push(handler)
        }
        return kept.length === 0 ? Effect.void : Effect.forEach(kept, start, { discard: true })
      })
      yield* places.take(concurrency)
    })
  )
