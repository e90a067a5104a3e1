import { Clock, Duration, Effect, Layer, Option, Queue } from "effect"
import { InteractionSettings } from "../interactions/InteractionSettings.js"
import { runStreamsOf } from "../interactions/runAddress.js"
import { timersPartition, timersView } from "../interactions/timersProjection.js"
import { whileHeld } from "../ports/Lease.js"
import { type LedgerWakeup, wakesFor } from "../ports/Ledger.js"
import { Views } from "../ports/Views.js"
import type { DriveServices } from "../workflow/run/driveRun.js"
import { eachWakeup } from "./eachWakeup.js"
import type { HostWakeups } from "./HostWakeups.js"
import { settleRun } from "./settleRun.js"

/**
 * The facts after which a run's timer may be due or newly set: a request opened, answered, or a cancel asked. An
 * append of none of them wakes no read (ADR 0279); a run's ending only removes its timer.
 */
const movesTimers: ReadonlySet<string> = new Set(["interaction_requested", "request_answered", "run_cancel_requested"])

/** The page size the host reads due timers in. */
const duePage = 256

/**
 * The host of waiting runs (ADR 0186). It holds nothing in memory that the views do not: (a) on every ledger
 * wake-up for a run stream whose timer is due (an answer or a cancel makes it due at once) it ends the run; a
 * timer not yet due wakes the timer loop instead; (b) the timer loop reads the `timers` view in due order, ends
 * what is due, and sleeps on Effect's `Clock` until the next due time, a nudge, or (c) the backstop sweep interval;
 * (d) its first pass resumes whatever a stopped instance left. Any number of instances may run it on one database;
 * the timer loop runs only on the instance holding the sweeps lease (ADR 0402).
 */
export const runHost: Effect.Effect<never, never, DriveServices | HostWakeups> = Effect.gen(function* () {
  const views = yield* Views
  const settings = yield* InteractionSettings
  const nudges = yield* Queue.sliding<void>(1)

  const settle = (stream: string) =>
    settleRun(stream).pipe(
      Effect.catchAllCause((cause) =>
        Effect.as(
          Effect.logWarning(`RunLedger host: could not end the run of ${stream}; the sweep tries again`, cause),
          false
        )
      )
    )

  const onStream = (stream: string) =>
    Effect.gen(function* () {
      const timer = yield* views.get({ view: timersView, partition: timersPartition, id: stream })
      if (Option.isNone(timer)) return
      if (Date.parse(timer.value.sort) <= (yield* Clock.currentTimeMillis)) yield* settle(stream)
      else yield* Queue.offer(nudges, undefined)
    }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("RunLedger host: a wake-up could not be read", cause)))

  const onWakeup = (wakeup: LedgerWakeup) => Effect.forEach(runStreamsOf(wakeup.streams), onStream, { discard: true })

  const wakeups = eachWakeup(
    (wakeup) => (wakesFor(wakeup, movesTimers) ? onWakeup(wakeup) : undefined),
    settings.concurrency
  )

  /** Ends every run whose timer is due, page by page; the time of the next timer after now, if any. */
  const endDue = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const nowText = new Date(now).toISOString()
    let after: { sort: string; id: string } | undefined
    for (;;) {
      const page = yield* views.list(timersView, timersPartition, {
        direction: "ascending",
        limit: duePage,
        ...(after === undefined ? {} : { after })
      })
      const due = page.filter((doc) => doc.sort <= nowText)
      yield* Effect.forEach(due, (doc) => settle(doc.id), { concurrency: settings.concurrency, discard: true })
      if (due.length < page.length) return { now, next: Date.parse(page[due.length]!.sort) }
      if (page.length < duePage) return { now, next: undefined }
      after = { sort: page[page.length - 1]!.sort, id: page[page.length - 1]!.id }
    }
  })

  const timers = Effect.gen(function* () {
    for (;;) {
      const { now, next } = yield* endDue.pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logWarning("RunLedger host: the timers could not be read", cause), {
            now: 0,
            next: undefined
          })
        )
      )
      const wait = Math.max(
        0,
        Math.min(next === undefined ? Number.POSITIVE_INFINITY : next - now, settings.sweepMillis)
      )
      yield* Effect.raceFirst(Effect.sleep(Duration.millis(wait)), Queue.take(nudges))
    }
  })

  return yield* Effect.all([wakeups.pipe(Effect.forever), whileHeld(timers)], { concurrency: 2 }).pipe(
    Effect.zipRight(Effect.never)
  )
})

/** The host as a layer: a fiber that lives as long as the runtime's scope. */
export const layer: Layer.Layer<never, never, DriveServices | HostWakeups> = Layer.scopedDiscard(
  Effect.forkScoped(runHost)
)
