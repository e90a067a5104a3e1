import { Effect, type Scope, Stream, type StreamEmit } from "effect"
import type { LedgerWakeup } from "../ports/Ledger.js"

/** A store's wake-ups in this process: what an append publishes, and the stream each subscriber reads it from. */
export interface WakeupFeed {
  /** Hands a wake-up to every running subscriber; `wakeup` is made only when one runs. */
  readonly publish: (wakeup: () => LedgerWakeup) => void
  /** Each run of it subscribes, from when it starts, until it stops or the feed's scope closes (then it ends). */
  readonly wakeups: Stream.Stream<LedgerWakeup>
}

/**
 * A feed that pushes each wake-up straight into every subscriber's own unbounded mailbox (`Stream.asyncPush`): a
 * wake-up costs each subscriber about half the steps of a `PubSub` read through `Stream.fromPubSub`, and every
 * append wakes every host (ADR 0239). The memory store publishes its appends through it, the Postgres store its own
 * appends and those its LISTEN connection hears (ADR 0411). Closing the scope ends every subscriber's stream, and any
 * started later.
 */
export const wakeupFeed: Effect.Effect<WakeupFeed, never, Scope.Scope> = Effect.gen(function* () {
  const subscribers = new Set<StreamEmit.EmitOpsPush<never, LedgerWakeup>>()
  let closed = false
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      closed = true
      for (const emit of subscribers) emit.end()
      subscribers.clear()
    })
  )
  const subscribe = (emit: StreamEmit.EmitOpsPush<never, LedgerWakeup>) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        if (closed) emit.end()
        else subscribers.add(emit)
      }),
      () => Effect.sync(() => subscribers.delete(emit))
    )
  return {
    publish: (wakeup) => {
      if (subscribers.size === 0) return
      const value = wakeup()
      for (const emit of subscribers) emit.single(value)
    },
    wakeups: Stream.asyncPush(subscribe, { bufferSize: "unbounded" })
  }
})
