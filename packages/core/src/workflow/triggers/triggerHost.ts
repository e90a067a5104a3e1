import { Clock, Duration, Effect, Layer, Option, Queue } from "effect"
import { HostWakeups } from "../../host/HostWakeups.js"
import { readPartition } from "../../ledger/readPartition.js"
import { whileHeld } from "../../ports/Lease.js"
import type { LedgerWakeup } from "../../ports/Ledger.js"
import { Views } from "../../ports/Views.js"
import type { DriveServices } from "../run/driveRun.js"
import { fireDue } from "./fireSchedules.js"
import { matchEvents } from "./matchEvents.js"
import { makeReactionRefusals } from "./reactionRefusals.js"
import { type TriggerCursor, triggerCursorsPartition, triggerCursorsView } from "./triggerCursorsProjection.js"
import { triggerDuePartition, triggerDueView } from "./triggerStatesProjection.js"

/** The longest the host sleeps without looking at the due view and the cursors. */
const sweepMillis = 30_000

/** How long the host waits before looking again when something due could not be fired. */
const stuckMillis = 1_000

/** The playbook (`<org>/<playbook>`) whose facts a stream holds, for the playbook's own streams. */
const playbookOf = (stream: string): string | undefined => {
  const parts = stream.split("/")
  return parts[0] === "playbook" && parts.length >= 4 ? `${parts[1]}/${parts[2]}` : undefined
}

/** Whether an append to a stream may change when a trigger is next due: a workflow saved, or its trigger stream. */
const movesDueTimes = (stream: string): boolean => {
  const parts = stream.split("/")
  return (parts[0] === "triggers" && parts.length === 4) || (parts[3] === "definitions" && parts[4] === "workflow")
}

/**
 * The trigger host (workflow-format.md §12; ADR 0281–0284), a fiber beside the workflow host that keeps nothing the
 * views do not: (a) its schedule loop fires the schedule triggers and queues of held-back starts the `trigger_due`
 * view says are due, at most 64 per round, then sleeps on the clock until the next is due, a nudge, or the sweep;
 * (b) its event loop matches each playbook's new facts against its event triggers from the playbook's cursor, woken
 * by ledger wake-ups for that playbook and by the sweep; (c) it records each minute's refusals as `reaction_refused`.
 * The schedule loop and the sweep run only on the instance holding the sweeps lease (ADR 0402); the others match
 * the events their wake-ups name and record the refusals they counted.
 */
export const runTriggerHost: Effect.Effect<never, never, DriveServices | HostWakeups> = Effect.gen(function* () {
  const hostWakeups = yield* HostWakeups
  const views = yield* Views
  const refusals = makeReactionRefusals()
  const failed = new Set<string>()
  const nudges = yield* Queue.sliding<void>(1)
  const dirty = yield* Queue.unbounded<string>()

  /**
   * The playbooks that have a cursor document (ever had an event trigger), read again when a workflow was saved;
   * the event loop looks only at those, so a wake-up of another playbook costs no read (ADR 0279).
   */
  let watched: ReadonlySet<string> | undefined
  const readWatched = Effect.map(
    readPartition(triggerCursorsView, triggerCursorsPartition),
    (docs) => new Set(docs.map((doc) => doc.id))
  )

  const everyCursor = Effect.flatMap(readWatched, (ids) => {
    watched = ids
    return Effect.forEach(ids, (id) => Queue.offer(dirty, id), { discard: true })
  })

  /**
   * Takes note of a wake-up at once, as it is read (ADR 0298): a nudge of the schedule loop when it may move a due
   * time, and its playbooks for the event loop. Both queues take it without waiting (one is unbounded, the other
   * keeps one nudge), so a wake-up costs no effect of its own.
   */
  const noteWakeup = (wakeup: LedgerWakeup) => {
    if (wakeup.streams.some(movesDueTimes)) {
      watched = undefined
      Queue.unsafeOffer(nudges, undefined)
    }
    for (const playbook of new Set(wakeup.streams.flatMap((stream) => playbookOf(stream) ?? [])))
      Queue.unsafeOffer(dirty, playbook)
  }

  const events = Effect.gen(function* () {
    const first = yield* Queue.take(dirty)
    const rest = yield* Queue.takeAll(dirty)
    if (watched === undefined) watched = yield* readWatched.pipe(Effect.orElseSucceed(() => undefined))
    for (const id of new Set([first, ...rest])) {
      if (watched !== undefined && !watched.has(id)) continue
      const cursor = yield* views
        .get({ view: triggerCursorsView, partition: triggerCursorsPartition, id })
        .pipe(Effect.orElseSucceed(() => Option.none()))
      if (cursor._tag === "None") continue
      const { org, playbook } = cursor.value.data as TriggerCursor
      yield* matchEvents(org, playbook, refusals, failed).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("RunLedger trigger host: events could not be matched", cause))
      )
    }
  })

  const schedules = Effect.gen(function* () {
    yield* refusals.flush
    const round = yield* fireDue(refusals).pipe(
      Effect.catchAllCause((cause) =>
        Effect.as(Effect.logWarning("RunLedger trigger host: the due triggers could not be read", cause), undefined)
      )
    )
    if (round?.more === true) return
    const now = yield* Clock.currentTimeMillis
    const [first] = yield* views
      .list(triggerDueView, triggerDuePartition, { direction: "ascending", limit: 1 })
      .pipe(Effect.orElseSucceed(() => []))
    const next = first === undefined ? undefined : Date.parse(first.sort)
    const flushAt = refusals.nextFlushAt()
    const wake = Math.min(next ?? Number.POSITIVE_INFINITY, flushAt ?? Number.POSITIVE_INFINITY, now + sweepMillis)
    const wait = round === undefined || (next !== undefined && next <= now) ? stuckMillis : Math.max(1, wake - now)
    yield* Effect.raceFirst(Effect.sleep(Duration.millis(wait)), Queue.take(nudges))
  })

  /** Off the lease: records the refusals this instance's event matching counted, once their minute is over. */
  const flushes = Effect.gen(function* () {
    yield* refusals.flush
    const now = yield* Clock.currentTimeMillis
    const wake = Math.min(refusals.nextFlushAt() ?? Number.POSITIVE_INFINITY, now + sweepMillis)
    yield* Effect.sleep(Duration.millis(Math.max(1, wake - now)))
  })

  const sweep = Effect.gen(function* () {
    yield* everyCursor.pipe(Effect.catchAllCause(() => Effect.void))
    yield* Effect.sleep(Duration.millis(sweepMillis))
  })

  const wakeups = Effect.scoped(Effect.zipRight(hostWakeups.listen(noteWakeup), Effect.never))
  return yield* Effect.all(
    [
      wakeups.pipe(Effect.forever),
      events.pipe(Effect.forever),
      whileHeld(schedules.pipe(Effect.forever), flushes.pipe(Effect.forever)),
      whileHeld(sweep.pipe(Effect.forever))
    ],
    { concurrency: 4 }
  ).pipe(Effect.zipRight(Effect.never))
})

/** The trigger host as a layer: a fiber that lives as long as the runtime's scope. */
export const triggerHostLayer: Layer.Layer<never, never, DriveServices | HostWakeups> = Layer.scopedDiscard(
  Effect.forkScoped(runTriggerHost)
)
