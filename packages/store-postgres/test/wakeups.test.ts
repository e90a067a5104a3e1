import { Ledger } from "@runledger/core"
import { layer } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Chunk, Context, Effect, Fiber, Layer, Stream } from "effect"
import { expect, it } from "vitest"
import { newFact, testPrefix } from "./facts.js"

postgresSuite("wake-ups across instances", "alongside", ({ url, schema }) => {
  it("wakes many subscribers of one instance after an append on another, and each instance's own once, with the append's types and origin", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const [one, other] = yield* Effect.all(
            [Layer.build(layer({ url, schema })), Layer.build(layer({ url, schema }))],
            {
              concurrency: "unbounded"
            }
          )
          const listening = Context.get(one, Ledger)
          const appending = Context.get(other, Ledger)
          const stream = `${testPrefix("wakeups")}s`
          const woken = (ledger: Context.Tag.Service<Ledger>, window: "take one" | "500 millis") =>
            ledger.wakeups.pipe(
              Stream.filter((wakeup) => wakeup.streams.includes(stream)),
              window === "take one" ? Stream.take(1) : Stream.interruptAfter(window),
              Stream.runCollect,
              Effect.map(Chunk.toReadonlyArray),
              Effect.fork
            )

          const subscribers = yield* Effect.forEach(Array.from({ length: 50 }), () => woken(listening, "take one"))
          const own = yield* woken(appending, "500 millis")
          yield* Effect.sleep("100 millis")
          yield* appending.append([{ stream, expected: 0, facts: [newFact("wake")] }], { origin: "elsewhere" })
          const received = yield* Fiber.joinAll(subscribers).pipe(Effect.timeout("10 seconds"))
          expect(received.map((wakeups) => wakeups[0])).toEqual(
            received.map(() => ({ streams: [stream], types: ["wake"], origin: "elsewhere" }))
          )
          expect(yield* Fiber.join(own)).toHaveLength(1)

          const back = yield* woken(appending, "take one")
          yield* Effect.sleep("100 millis")
          yield* listening.append([{ stream, expected: 1, facts: [newFact("wake")] }])
          expect((yield* Fiber.join(back).pipe(Effect.timeout("10 seconds")))[0]).toEqual({
            streams: [stream],
            types: ["wake"]
          })
        })
      )
    ))
})
