import { Deferred, Effect } from "effect"
import { Ledger } from "../ports/Ledger.js"

/**
 * The runs this runtime carries out now within their requests, by stream, each with the latch its end opens
 * (ADR 0343). Kept per runtime, keyed by its `Ledger` service, so two runtimes in one process keep theirs apart
 * (as ADR 0328's listings are kept).
 */
const going = new WeakMap<object, Map<string, Deferred.Deferred<void>>>()

const runsOf = (ledger: object): Map<string, Deferred.Deferred<void>> => {
  const known = going.get(ledger)
  if (known !== undefined) return known
  const runs = new Map<string, Deferred.Deferred<void>>()
  going.set(ledger, runs)
  return runs
}

/**
 * Carries out `work`, the run of `stream` up to its ending recorded, as a run going here: a request under its id
 * meanwhile waits for its end (`waitedForRunHere`) rather than taking it for a run another server may be carrying.
 */
export const goingHere = <A, E, R>(stream: string, work: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Ledger> =>
  Effect.flatMap(Ledger, (ledger) => {
    const runs = runsOf(ledger)
    return Effect.acquireUseRelease(
      Effect.tap(Deferred.make<void>(), (ended) => Effect.sync(() => runs.set(stream, ended))),
      () => work,
      (ended) =>
        Effect.zipRight(
          Effect.sync(() => {
            if (runs.get(stream) === ended) runs.delete(stream)
          }),
          Deferred.succeed(ended, undefined)
        )
    )
  })

/** Waits for the end of the run of `stream` when it is going here; answers whether it was. */
export const waitedForRunHere = (stream: string): Effect.Effect<boolean, never, Ledger> =>
  Effect.flatMap(Ledger, (ledger) => {
    const ended = runsOf(ledger).get(stream)
    return ended === undefined ? Effect.succeed(false) : Effect.as(Deferred.await(ended), true)
  })
