import { Duration, Effect, Option, Queue, Stream } from "effect"
import { Ledger, type LedgerWakeup } from "../ports/Ledger.js"

/**
 * What `look` finds first: it looks once, then again at each wake-up `wakes` keeps for at most `wait`, listening
 * before its first look, so nothing recorded between the two goes unheard. After a wake-up whose look found
 * nothing it looks again after each delay of `settle` in turn, until the next wake-up (ADR 0197: a reader of the
 * global order may be woken before the fact passes the horizon). `Some(Some(found))` once found; `Some(None)` when
 * the wake-ups end first (the store's scope closes as the runtime stops); `None` when `wait` passes first (never
 * with an infinite `wait`).
 */
export const firstFound = <A, E, R>(
  wakes: (wakeup: LedgerWakeup) => boolean,
  look: Effect.Effect<Option.Option<A>, E, R>,
  wait: Duration.DurationInput,
  settle: ReadonlyArray<Duration.DurationInput> = []
): Effect.Effect<Option.Option<Option.Option<A>>, E, R | Ledger> =>
  Effect.scoped(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      // What was heard since the last take: true a wake-up, false the end of the wake-ups, which displaces it.
      const heard = yield* Queue.sliding<boolean>(1)
      yield* ledger.wakeups.pipe(
        Stream.filter(wakes),
        Stream.runForEach(() => heard.offer(true)),
        Effect.zipRight(heard.offer(false)),
        Effect.forkScoped
      )
      yield* Effect.yieldNow()
      const first = yield* look
      if (Option.isSome(first)) return Option.some(first)
      const listen = Effect.gen(function* () {
        let signal = yield* heard.take
        for (;;) {
          if (!signal) return Option.none<A>()
          let found = yield* look
          let next: boolean | undefined
          for (const delay of settle) {
            if (Option.isSome(found)) break
            next = yield* Effect.race(Effect.as(Effect.sleep(delay), undefined), heard.take)
            if (next !== undefined) break
            found = yield* look
          }
          if (Option.isSome(found)) return found
          signal = next ?? (yield* heard.take)
        }
      })
      return yield* listen.pipe(Effect.timeoutOption(Duration.decode(wait)))
    })
  )
