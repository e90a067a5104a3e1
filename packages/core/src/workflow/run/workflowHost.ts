import { Clock, Duration, Effect, Layer, Option, Queue } from "effect"
import { eachWakeup } from "../../host/eachWakeup.js"
import type { HostWakeups } from "../../host/HostWakeups.js"
import { runEndingTypes } from "../../interactions/interactionFacts.js"
import { runAddressOf } from "../../interactions/runAddress.js"
import { whileHeld } from "../../ports/Lease.js"
import { type LedgerWakeup, wakesFor } from "../../ports/Ledger.js"
import { Views } from "../../ports/Views.js"
import type { RunState } from "../../runs/RunRecord.js"
import { runsPartition, runsView } from "../../runs/runsProjection.js"
import { type DriveServices, driveRun } from "./driveRun.js"
import { timerOfOrigin, WorkflowEngine, workflowDriveOrigin } from "./WorkflowEngine.js"
import { type WorkflowDue, workflowDuePartition, workflowDueView } from "./workflowDueProjection.js"
import { workflowInputApplied } from "./workflowFacts.js"

/**
 * The facts after which a workflow run may have something to take that no drive of this process carries on with:
 * a run ended (its caller's call arrived), or a cancel was asked. Any other append wakes no read (ADR 0279).
 */
const movesWorkflows: ReadonlySet<string> = new Set(["run_cancel_requested", ...runEndingTypes])

/** The facts that ask a run to cancel, and those that end a run (its caller's call arrived). */
const cancels: ReadonlySet<string> = new Set(["run_cancel_requested"])
const endings: ReadonlySet<string> = new Set(runEndingTypes)

/** An input another instance recorded may have set a timer: the timer loop looks at the due view again. */
const setsTimers: ReadonlySet<string> = new Set([workflowInputApplied])

/** The page size the host reads due runs in. */
const duePage = 256

/** How many runs the host drives at once. */
const concurrency = 16

/** The longest the host sleeps without looking at the due view: the backstop if a wake-up and a nudge were lost. */
const sweepMillis = 30_000

/** How long the host waits before looking again when a due run could not be moved (a store outage, a defect). */
const stuckMillis = 1_000

/**
 * The host of workflow runs (architecture.md, The host; ADR 0271). It keeps nothing in memory the views do not:
 * (a) on a ledger wake-up for a run stream it drives that run if its due document says something waits, and the
 * run that called it if it ended; (b) its timer loop reads the `workflow_due` view in due order, drives what is due
 * and sleeps until the next due time, a nudge, or the sweep interval; (c) its first pass takes up whatever a
 * stopped instance left. Any number of instances may run it on one database: a run's inputs are applied at the
 * version its stream was read at, so one instance's append wins and the others decide again. The timer loop runs
 * only on the instance holding the sweeps lease (ADR 0402); wake-ups are taken wherever they land.
 */
export const runWorkflowHost: Effect.Effect<never, never, DriveServices | HostWakeups> = Effect.gen(function* () {
  const views = yield* Views
  const engine = yield* WorkflowEngine
  const nudges = engine.nudges

  const dueDoc = (stream: string) =>
    Effect.map(
      views.get({ view: workflowDueView, partition: workflowDuePartition, id: stream }),
      (doc) => Option.getOrUndefined(doc) as { sort: string; data: WorkflowDue } | undefined
    )

  /**
   * Drives the run of `stream` if its due document says a callee ended, a cancel was asked or its time has come,
   * else lets the timer loop know of its time.
   */
  const lookAt = (stream: string) =>
    Effect.gen(function* () {
      const doc = yield* dueDoc(stream)
      if (doc === undefined) return
      const waiting = Object.keys(doc.data.arrivals).length > 0 || doc.data.cancel !== undefined
      if (waiting || Date.parse(doc.sort) <= (yield* Clock.currentTimeMillis)) yield* driveRun(stream)
      else yield* Queue.offer(nudges, undefined)
    })

  /**
   * Looks at a run a wake-up names: at the run itself when a cancel may have been asked of it (an ended run has no
   * due document of its own). When it may have ended, the workflow run that called it (`within`, which only a
   * workflow's call step gives) is driven at once: the ending marked the call arrived on the caller's due document in
   * its own append, and the drive reads that document anyway, so reading it first as well would cost one more round
   * trip on the way to the caller's next step (ADR 0412).
   */
  const onStream = (wakeup: LedgerWakeup) => (stream: string) =>
    Effect.gen(function* () {
      const parts = runAddressOf(stream)
      if (parts === undefined) return
      if (wakesFor(wakeup, cancels)) yield* lookAt(stream)
      if (!wakesFor(wakeup, endings)) return
      const run = yield* views.get({
        view: runsView,
        partition: runsPartition(parts.org, parts.playbook),
        id: parts.runId
      })
      const within = (Option.getOrUndefined(run)?.data as RunState | undefined)?.within
      if (within !== undefined) yield* driveRun(`playbook/${parts.org}/${parts.playbook}/runs/${within.run_id}`)
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("RunLedger workflow host: a wake-up could not be read", cause))
    )

  /**
   * What a wake-up asks of the host (ADR 0279): a look at its streams; a nudge of the timer loop, for a drive's
   * timer due before the loop wakes where the loop runs, or for an input from an instance that does not tag its
   * appends; or nothing (a drive's own append, which that drive carries on with, wherever it runs).
   */
  const askOf = (wakeup: LedgerWakeup): "look" | "nudge" | undefined => {
    const timer = timerOfOrigin(wakeup.origin)
    const fromDrive = wakeup.origin === workflowDriveOrigin || timer !== undefined
    if (fromDrive && !wakeup.types?.includes("run_cancel_requested"))
      return timer !== undefined && timer < engine.timerLoop.wakesAt ? "nudge" : undefined
    if (wakesFor(wakeup, movesWorkflows)) return "look"
    return wakeup.origin === undefined && wakesFor(wakeup, setsTimers) ? "nudge" : undefined
  }

  /** What the host does on a wake-up, once its ask is known; nothing for a wake-up that asks nothing. */
  const answer = (wakeup: LedgerWakeup) => {
    const ask = askOf(wakeup)
    if (ask === undefined) return undefined
    return ask === "look"
      ? Effect.forEach(wakeup.streams, onStream(wakeup), { discard: true })
      : Queue.offer(nudges, undefined)
  }

  const wakeups = eachWakeup(answer, concurrency)

  /** Drives every run that is due, page by page; the time of the next due run after now, if any. */
  const driveDue = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const nowText = new Date(now).toISOString()
    let after: { sort: string; id: string } | undefined
    let stuck = false
    for (;;) {
      const page = yield* views.list(workflowDueView, workflowDuePartition, {
        direction: "ascending",
        limit: duePage,
        ...(after === undefined ? {} : { after })
      })
      const due = page.filter((doc) => doc.sort <= nowText)
      const moved = yield* Effect.forEach(due, (doc) => driveRun(doc.id), { concurrency })
      if (moved.includes(false)) stuck = true
      if (due.length < page.length) return { now, next: Date.parse(page[due.length]!.sort), stuck }
      if (page.length < duePage) return { now, next: undefined, stuck }
      after = { sort: page[page.length - 1]!.sort, id: page[page.length - 1]!.id }
    }
  })

  const timers = Effect.gen(function* () {
    engine.timerLoop.wakesAt = Number.POSITIVE_INFINITY
    for (;;) {
      const { now, next, stuck } = yield* driveDue.pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logWarning("RunLedger workflow host: the due runs could not be read", cause), {
            now: 0,
            next: undefined,
            stuck: true
          })
        )
      )
      const wait = Math.max(
        stuck ? stuckMillis : 1,
        Math.min(next === undefined ? Number.POSITIVE_INFINITY : next - now, sweepMillis)
      )
      engine.timerLoop.wakesAt = now + wait
      yield* Effect.raceFirst(Effect.sleep(Duration.millis(wait)), Queue.take(nudges))
      engine.timerLoop.wakesAt = Number.POSITIVE_INFINITY
    }
  }).pipe(
    Effect.ensuring(
      Effect.sync(() => {
        engine.timerLoop.wakesAt = Number.NEGATIVE_INFINITY
      })
    )
  )

  return yield* Effect.all([wakeups.pipe(Effect.forever), whileHeld(timers)], { concurrency: 2 }).pipe(
    Effect.zipRight(Effect.never)
  )
})

/** The workflow host as a layer: a fiber that lives as long as the runtime's scope. */
export const workflowHostLayer: Layer.Layer<never, never, DriveServices | HostWakeups> = Layer.scopedDiscard(
  Effect.forkScoped(runWorkflowHost)
)
