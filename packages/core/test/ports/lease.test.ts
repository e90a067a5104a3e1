import { it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option, Ref, Stream, SubscriptionRef } from "effect"
import { describe, expect } from "vitest"
import { Lease, whileHeld } from "../../src/ports/Lease.js"

/** A loop that records its start and, when interrupted, its stop, then runs until interrupted. */
const loop = (name: string, log: Ref.Ref<ReadonlyArray<string>>, started: Deferred.Deferred<void>) =>
  Effect.zipRight(
    Ref.update(log, (entries) => [...entries, `${name} started`]),
    Effect.zipRight(Deferred.succeed(started, undefined), Effect.never)
  ).pipe(Effect.onInterrupt(() => Ref.update(log, (entries) => [...entries, `${name} stopped`])))

describe("whileHeld", () => {
  it.scoped("runs the loop while the lease is held and the other while it is not, switching at each change", () =>
    Effect.gen(function* () {
      const held = yield* SubscriptionRef.make(false)
      const log = yield* Ref.make<ReadonlyArray<string>>([])
      const starts = yield* Effect.all(Array.from({ length: 3 }, () => Deferred.make<void>()))
      let round = 0
      const next = (name: string) => Effect.suspend(() => loop(name, log, starts[round++]!))
      const fiber = yield* whileHeld(next("sweep"), next("off")).pipe(
        Effect.provideService(Lease, { held: held.changes }),
        Effect.fork
      )
      yield* Deferred.await(starts[0]!)
      yield* SubscriptionRef.set(held, true)
      yield* Deferred.await(starts[1]!)
      yield* SubscriptionRef.set(held, true)
      yield* SubscriptionRef.set(held, false)
      yield* Deferred.await(starts[2]!)
      expect(yield* Ref.get(log)).toEqual([
        "off started",
        "off stopped",
        "sweep started",
        "sweep stopped",
        "off started"
      ])
      yield* Fiber.interrupt(fiber)
    })
  )

  it.scoped("the default lease, for a store one instance uses, is always held", () =>
    Effect.gen(function* () {
      const log = yield* Ref.make<ReadonlyArray<string>>([])
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(whileHeld(loop("sweep", log, started)))
      yield* Deferred.await(started)
      expect(yield* Ref.get(log)).toEqual(["sweep started"])
      expect(yield* Stream.runHead((yield* Lease).held)).toEqual(Option.some(true))
      yield* Fiber.interrupt(fiber)
    })
  )
})
