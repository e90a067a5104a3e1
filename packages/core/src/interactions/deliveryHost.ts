import { Clock, Duration, Effect, FiberSet, Layer, Option, Queue } from "effect"
import { eachWakeup } from "../host/eachWakeup.js"
import type { HostWakeups } from "../host/HostWakeups.js"
import { whileHeld } from "../ports/Lease.js"
import { type LedgerWakeup, wakesFor } from "../ports/Ledger.js"
import { Views } from "../ports/Views.js"
import { DeliverySettings } from "./DeliverySettings.js"
import { type DeliveryServices, deliverDue } from "./deliverDue.js"
import { deliveriesPartition, deliveriesView } from "./deliveriesProjection.js"
import { attemptEndingTypes } from "./interactionFacts.js"
import { runStreamsOf } from "./runAddress.js"

/**
 * The facts after which a delivery may be due: a request made, an attempt begun (lost at its `lost_at`) or ended.
 * An answer, a cancel or a run's end only remove a delivery; an append of none of these wakes no read (ADR 0279).
 */
const movesDeliveries: ReadonlySet<string> = new Set([
  "interaction_requested",
  "delivery_started",
  ...attemptEndingTypes
])

/** The page size the delivery host reads due deliveries in. */
const duePage = 256

/** How long the host waits before looking again when a due delivery was already being moved here. */
const busyMillis = 1_000

/**
 * The host of deliveries through tools (ADR 0192), beside the host that ends waiting runs. It holds nothing in
 * memory the `deliveries` view does not: (a) on every ledger wake-up for a run stream whose delivery is due it
 * moves that delivery (a request just made is due at once); one not yet due wakes its timer loop instead; (b) the
 * timer loop reads the view in due order, moves what is due, and sleeps until the next due time, a nudge, or the
 * backstop sweep; (c) its first pass takes up what a stopped instance left, an attempt it left open once that
 * attempt's `lost_at` passed. Each delivery is moved by one fiber of an instance at a time, at most
 * `concurrency` at once; any number of instances may run it on one database, since each step is a decision on the
 * run's stream at the version read. The timer loop runs only on the instance holding the sweeps lease (ADR 0402).
 */
export const runDeliveryHost: Effect.Effect<never, never, DeliveryServices | Views | HostWakeups> = Effect.scoped(
  Effect.gen(function* () {
    const views = yield* Views
    const settings = yield* DeliverySettings
    const nudges = yield* Queue.sliding<void>(1)
    const fibers = yield* FiberSet.make()
    const permits = yield* Effect.makeSemaphore(settings.concurrency)
    const moving = new Set<string>()

    /** Moves the delivery of a stream on a fiber of its own, unless this instance is moving it; whether it started. */
    const launch = (stream: string) =>
      Effect.suspend(() => {
        if (moving.has(stream)) return Effect.succeed(false)
        moving.add(stream)
        return FiberSet.run(
          fibers,
          permits
            .withPermits(1)(deliverDue(stream))
            .pipe(
              Effect.ensuring(Effect.sync(() => moving.delete(stream))),
              Effect.zipRight(Queue.offer(nudges, undefined)),
              Effect.catchAllCause((cause) =>
                Effect.logWarning(
                  `RunLedger delivery host: could not move the delivery of ${stream}; the sweep tries again`,
                  cause
                )
              )
            )
        ).pipe(Effect.as(true))
      })

    const onStream = (stream: string) =>
      Effect.gen(function* () {
        const doc = yield* views.get({ view: deliveriesView, partition: deliveriesPartition, id: stream })
        if (Option.isNone(doc)) return
        if (Date.parse(doc.value.sort) <= (yield* Clock.currentTimeMillis)) yield* launch(stream)
        else yield* Queue.offer(nudges, undefined)
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning("RunLedger delivery host: a wake-up could not be read", cause)
        )
      )

    const onWakeup = (wakeup: LedgerWakeup) => Effect.forEach(runStreamsOf(wakeup.streams), onStream, { discard: true })

    const wakeups = eachWakeup((wakeup) => (wakesFor(wakeup, movesDeliveries) ? onWakeup(wakeup) : undefined), 1)

    /** Launches every due delivery, page by page; the time of the next one after now, and whether one was busy. */
    const launchDue = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const nowText = new Date(now).toISOString()
      let after: { sort: string; id: string } | undefined
      let busy = false
      for (;;) {
        const page = yield* views.list(deliveriesView, deliveriesPartition, {
          direction: "ascending",
          limit: duePage,
          ...(after === undefined ? {} : { after })
        })
        const due = page.filter((doc) => doc.sort <= nowText)
        for (const doc of due) if (!(yield* launch(doc.id))) busy = true
        if (due.length < page.length) return { now, next: Date.parse(page[due.length]!.sort), busy }
        if (page.length < duePage) return { now, next: undefined, busy }
        after = { sort: page[page.length - 1]!.sort, id: page[page.length - 1]!.id }
      }
    })

    const timers = Effect.gen(function* () {
      for (;;) {
        const { now, next, busy } = yield* launchDue.pipe(
          Effect.catchAllCause((cause) =>
            Effect.as(Effect.logWarning("RunLedger delivery host: the due deliveries could not be read", cause), {
              now: 0,
              next: undefined,
              busy: true
            })
          )
        )
        const wait = Math.min(
          next === undefined ? Number.POSITIVE_INFINITY : Math.max(0, next - now),
          busy ? busyMillis : settings.sweepMillis,
          settings.sweepMillis
        )
        yield* Effect.raceFirst(Effect.sleep(Duration.millis(wait)), Queue.take(nudges))
      }
    })

    return yield* Effect.all([wakeups.pipe(Effect.forever), whileHeld(timers)], { concurrency: 2 }).pipe(
      Effect.zipRight(Effect.never)
    )
  })
)

/** The delivery host as a layer: a fiber that lives as long as the runtime's scope. */
export const deliveryHostLayer: Layer.Layer<never, never, DeliveryServices | Views | HostWakeups> = Layer.scopedDiscard(
  Effect.forkScoped(runDeliveryHost)
)
