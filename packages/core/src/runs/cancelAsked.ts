import { Effect, Fiber, Option, Stream } from "effect"
import type { Fact } from "../domain/Fact.js"
import type { CancelAsked } from "../formats/DefinitionFormat.js"
import { Ledger, wakesFor } from "../ports/Ledger.js"
import type { RunCancelRequested } from "./runFacts.js"

const cancelTypes: ReadonlySet<string> = new Set(["run_cancel_requested"])

/** The first cancel asked since the run's last start (or resumption), if any. */
const cancelSinceStart = (facts: ReadonlyArray<Fact>): Option.Option<CancelAsked> => {
  let found: Option.Option<CancelAsked> = Option.none()
  for (const fact of facts) {
    if (fact.type === "run_started") found = Option.none()
    else if (fact.type === "run_cancel_requested" && Option.isNone(found)) {
      const data = fact.data as RunCancelRequested
      found = Option.some({
        kind: data.kind,
        by: fact.metadata.by,
        ...(data.reason === undefined ? {} : { reason: data.reason })
      })
    }
  }
  return found
}

/**
 * Watches the run on `stream` for a cancel (ADR 0329): the effect it gives listens to the ledger's wake-ups of that
 * stream before it reads the stream once, so no cancel recorded between the two goes unheard, and completes with
 * the first cancel asked since the run's start, in this process or (where the store shares a database) in another.
 * It never completes when no cancel comes; a read the store refuses is tried at the next wake-up.
 */
export const cancelAsked = (stream: string): Effect.Effect<Effect.Effect<CancelAsked>, never, Ledger> =>
  Effect.map(Ledger, (ledger) => {
    const look = ledger.readStream(stream).pipe(
      Effect.map(cancelSinceStart),
      Effect.orElseSucceed(() => Option.none<CancelAsked>())
    )
    return Effect.scoped(
      Effect.gen(function* () {
        const listener = yield* ledger.wakeups.pipe(
          Stream.filter((wakeup) => wakeup.streams.includes(stream) && wakesFor(wakeup, cancelTypes)),
          Stream.mapEffect(() => look),
          Stream.filterMap((found) => found),
          Stream.runHead,
          Effect.forkScoped
        )
        yield* Effect.yieldNow()
        const first = yield* look
        if (Option.isSome(first)) return first.value
        const heard = yield* Fiber.join(listener)
        return Option.isSome(heard) ? heard.value : yield* Effect.never
      })
    )
  })
