import { Deferred, Effect, Fiber, Layer, Logger, Ref } from "effect"
import { describe, expect, it } from "vitest"
import { eachWakeup } from "../../src/host/eachWakeup.js"
import { HostWakeups, layer as hostWakeupsLayer } from "../../src/host/HostWakeups.js"
import { wakeupFeed } from "../../src/ledger/wakeupFeed.js"
import { Ledger, type LedgerWakeup } from "../../src/ports/Ledger.js"

/** A wake-up naming one stream. */
const wakeupOn = (stream: string): LedgerWakeup => ({ streams: [stream] })

/**
 * Runs `body` with the hosts' wake-ups read from a push feed standing for the store's, and `publish` to append to it
 * (only `wakeups` of the ledger is read by the layer). Errors logged are collected in `logged`.
 */
const withFeed = <A>(
  body: (publish: (wakeup: LedgerWakeup) => void, logged: Array<string>) => Effect.Effect<A, never, HostWakeups>
) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const feed = yield* wakeupFeed
        const logged: Array<string> = []
        const ledger = Layer.succeed(Ledger, { wakeups: feed.wakeups } as unknown as Ledger["Type"])
        const logger = Logger.replace(
          Logger.defaultLogger,
          Logger.make(({ message }) => logged.push(String(message)))
        )
        const services = yield* Layer.build(Layer.provide(hostWakeupsLayer, ledger)).pipe(Effect.provide(logger))
        const publish = (wakeup: LedgerWakeup) => feed.publish(() => wakeup)
        // The reader subscribes in a fiber of its own: probe until it hands a wake-up on, then begin.
        let probed = false
        yield* Effect.scoped(
          Effect.gen(function* () {
            yield* (yield* HostWakeups).listen(() => {
              probed = true
            })
            for (let looks = 0; looks < 1_000 && !probed; looks++) {
              publish(wakeupOn("probe"))
              yield* Effect.sleep(1)
            }
          })
        ).pipe(Effect.provide(services))
        expect(probed).toBe(true)
        return yield* body(publish, logged).pipe(Effect.provide(services))
      })
    )
  )

/** Waits until `done` holds, yielding to the other fibers between looks. */
const until = (done: () => boolean) =>
  Effect.gen(function* () {
    for (let looks = 0; looks < 1_000 && !done(); looks++) yield* Effect.sleep(1)
    expect(done()).toBe(true)
  })

describe("the hosts' wake-ups (ADR 0298)", () => {
  it("hands every wake-up, in order, to every listener registered, and none after it leaves", async () => {
    await withFeed((publish) =>
      Effect.gen(function* () {
        const hosts = yield* HostWakeups
        const first: Array<string> = []
        const second: Array<string> = []
        yield* hosts.listen((wakeup) => first.push(wakeup.streams[0]!))
        const leaving = yield* Effect.fork(
          Effect.scoped(
            Effect.zipRight(
              hosts.listen((wakeup) => second.push(wakeup.streams[0]!)),
              Effect.never
            )
          )
        )
        yield* Effect.yieldNow()
        publish(wakeupOn("a"))
        publish(wakeupOn("b"))
        yield* until(() => first.length === 2 && second.length === 2)
        yield* Fiber.interrupt(leaving)
        publish(wakeupOn("c"))
        yield* until(() => first.length === 3)
        expect(first).toEqual(["a", "b", "c"])
        expect(second).toEqual(["a", "b"])
      }).pipe(Effect.scoped)
    )
  })

  it("logs a listener that throws and still hands the wake-up to the others, and the next ones to it", async () => {
    await withFeed((publish, logged) =>
      Effect.gen(function* () {
        const hosts = yield* HostWakeups
        const heard: Array<string> = []
        let throws = 0
        yield* hosts.listen((wakeup) => {
          if (wakeup.streams[0] === "bad") {
            throws++
            throw new Error("cannot take it")
          }
          heard.push(`thrower ${wakeup.streams[0]}`)
        })
        yield* hosts.listen((wakeup) => heard.push(`other ${wakeup.streams[0]}`))
        publish(wakeupOn("bad"))
        publish(wakeupOn("good"))
        yield* until(() => heard.length === 3)
        expect(throws).toBe(1)
        expect(heard).toEqual(["other bad", "thrower good", "other good"])
        expect(logged.some((message) => message.includes("could not take a wake-up"))).toBe(true)
      }).pipe(Effect.scoped)
    )
  })
})

describe("eachWakeup", () => {
  it("runs the handlers of the wake-ups it keeps, in order and at most `concurrency` at once", async () => {
    await withFeed((publish) =>
      Effect.gen(function* () {
        const running = yield* Ref.make(0)
        const most = yield* Ref.make(0)
        const started: Array<string> = []
        const gate = yield* Deferred.make<void>()
        const handlerOf = (wakeup: LedgerWakeup) => {
          const stream = wakeup.streams[0]!
          if (stream.startsWith("skip")) return undefined
          return Effect.gen(function* () {
            started.push(stream)
            const now = yield* Ref.updateAndGet(running, (count) => count + 1)
            yield* Ref.update(most, (seen) => Math.max(seen, now))
            yield* Deferred.await(gate)
            yield* Ref.update(running, (count) => count - 1)
          })
        }
        const fiber = yield* Effect.fork(eachWakeup(handlerOf, 2))
        yield* Effect.yieldNow()
        for (const stream of ["one", "skip-1", "two", "three", "skip-2", "four"]) publish(wakeupOn(stream))
        yield* until(() => started.length === 2)
        yield* Effect.sleep(20)
        expect(started).toEqual(["one", "two"])
        yield* Deferred.succeed(gate, undefined)
        yield* until(() => started.length === 4)
        yield* until(() => Effect.runSync(Ref.get(running)) === 0)
        expect(started).toEqual(["one", "two", "three", "four"])
        expect(yield* Ref.get(most)).toBe(2)
        yield* Fiber.interrupt(fiber)
      })
    )
  })
})
