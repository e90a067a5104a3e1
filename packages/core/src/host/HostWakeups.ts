import { Cause, Context, Effect, Layer, type Scope, Stream } from "effect"
import { Ledger, type LedgerWakeup } from "../ports/Ledger.js"

/** What a host does with a wake-up the moment it is read: a plain call, which must not wait. */
export type WakeupListener = (wakeup: LedgerWakeup) => void

/**
 * The ledger's wake-ups read once for all the hosts of a runtime (ADR 0298): every append wakes every host, and
 * most concern none of them, so each host is called with each wake-up instead of reading the store's stream on its
 * own (a stream read is ≈ 30 Effect operations per reader and wake-up).
 */
export class HostWakeups extends Context.Tag("@runledger/core/HostWakeups")<
  HostWakeups,
  {
    /**
     * Calls `listener` with each wake-up read from now on, in the ledger's order, until the scope closes. A
     * listener that throws is logged and kept; the others are called as if it had not.
     */
    readonly listen: (listener: WakeupListener) => Effect.Effect<void, never, Scope.Scope>
  }
>() {}

/** Calls every listener with every wake-up of a chunk, in order; what they throw, as one cause. */
const handOut = (listeners: ReadonlySet<WakeupListener>, wakeups: Iterable<LedgerWakeup>) => {
  let thrown: Cause.Cause<never> = Cause.empty
  for (const wakeup of wakeups)
    for (const listener of listeners) {
      try {
        listener(wakeup)
      } catch (defect) {
        thrown = Cause.sequential(thrown, Cause.die(defect))
      }
    }
  return thrown
}

/**
 * The hosts' wake-ups as a layer: one fiber of the layer's scope reads `Ledger.wakeups` (again whenever the stream
 * ends) and hands each wake-up to the listeners registered at that moment.
 */
export const layer: Layer.Layer<HostWakeups, never, Ledger> = Layer.scoped(
  HostWakeups,
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const listeners = new Set<WakeupListener>()
    const read = Stream.runForEachChunk(ledger.wakeups, (chunk) =>
      Effect.suspend(() => {
        const thrown = handOut(listeners, chunk)
        return Cause.isEmpty(thrown)
          ? Effect.void
          : Effect.logError("RunLedger hosts: a host could not take a wake-up", thrown)
      })
    )
    yield* Effect.forkScoped(Effect.forever(read))
    return HostWakeups.of({
      listen: (listener) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            listeners.add(listener)
          }),
          () =>
            Effect.sync(() => {
              listeners.delete(listener)
            })
        )
    })
  })
)
