import { Duration, Effect, Option } from "effect"
import type { Fact } from "../domain/Fact.js"
import type { CancelAsked } from "../formats/DefinitionFormat.js"
import { firstFound } from "../ledger/firstFound.js"
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
    // Made when the watch begins: most formats never watch, and a run's start should not build a read for them.
    const look = Effect.suspend(() => ledger.readStream(stream)).pipe(
      Effect.map(cancelSinceStart),
      Effect.orElseSucceed(() => Option.none<CancelAsked>())
    )
    return Effect.flatMap(
      firstFound((wakeup) => wakeup.streams.includes(stream) && wakesFor(wakeup, cancelTypes), look, Duration.infinity),
      (heard) => Option.match(Option.flatten(heard), { onNone: () => Effect.never, onSome: Effect.succeed })
    ).pipe(Effect.provideService(Ledger, ledger))
  })
