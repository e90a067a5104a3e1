import { Effect, Stream } from "effect"
import type { LedgerWakeup } from "../ports/Ledger.js"

/**
 * Runs `handle` on each wake-up `wanted` keeps, at most `concurrency` at once (the next kept wake-up waits for a
 * place, as a bounded stage would), and ends once the wake-ups end and every handler has ended. A wake-up it does
 * not keep costs one call of `wanted` and no stage of its own: most appends concern no host (ADR 0239).
 */
export const eachWakeup = <R>(
  wakeups: Stream.Stream<LedgerWakeup>,
  wanted: (wakeup: LedgerWakeup) => boolean,
  handle: (wakeup: LedgerWakeup) => Effect.Effect<void, never, R>,
  concurrency: number
): Effect.Effect<void, never, R> =>
  Effect.scoped(
    Effect.gen(function* () {
      const places = yield* Effect.makeSemaphore(concurrency)
      const scope = yield* Effect.scope
      const start = (wakeup: LedgerWakeup) =>
        Effect.zipRight(places.take(1), Effect.forkIn(Effect.ensuring(handle(wakeup), places.release(1)), scope))
      yield* Stream.runForEachChunk(wakeups, (chunk) => {
        const kept: Array<LedgerWakeup> = []
        for (const wakeup of chunk) if (wanted(wakeup)) kept.push(wakeup)
        return kept.length === 0 ? Effect.void : Effect.forEach(kept, start, { discard: true })
      })
      yield* places.take(concurrency)
    })
  )
