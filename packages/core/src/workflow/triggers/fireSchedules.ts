import { Clock, Effect, Option } from "effect"
import { placeFacts } from "../../ledger/decide.js"
import { Ledger } from "../../ports/Ledger.js"
import { Views } from "../../ports/Views.js"
import type { RunState } from "../../runs/RunRecord.js"
import { runsPartition, runsView } from "../../runs/runsProjection.js"
import { drainQueue } from "./drainQueue.js"
import { dueTimesWithin } from "./dueTimes.js"
import type { ReactionRefusals } from "./reactionRefusals.js"
import { startTriggeredRun } from "./startTriggeredRun.js"
import type { ScheduleTriggerView } from "./TriggerView.js"
import { derivedFactId, type SchedulePassed, schedulePassed, triggeredRunId, triggerStream } from "./triggerFacts.js"
import {
  type TriggerDue,
  triggerDuePartition,
  triggerDueView,
  workflowTriggersPartition,
  workflowTriggersView
} from "./triggerStatesProjection.js"
import { activationOf, type WorkflowTriggers } from "./WorkflowTriggers.js"

/** The most schedule triggers (and queues) one round fires (workflow-format.md §12.3). */
export const firedPerRound = 64

/** How many starts one round makes at once. */
const concurrency = 8

const readState = (due: TriggerDue) =>
  Effect.map(
    Effect.flatMap(Views, (views) =>
      views.get({
        view: workflowTriggersView,
        partition: workflowTriggersPartition(due.org, due.playbook),
        id: due.name
      })
    ),
    (doc) => Option.getOrUndefined(doc)?.data as WorkflowTriggers | undefined
  )

/** Whether a run is still going. */
const isGoing = (state: WorkflowTriggers, runId: string) =>
  Effect.map(
    Effect.flatMap(Views, (views) =>
      views.get({ view: runsView, partition: runsPartition(state.org, state.playbook), id: runId })
    ),
    (doc) => (Option.getOrUndefined(doc)?.data as RunState | undefined)?.status === "started"
  )

/** Records that due times passed without a run, so the trigger counts on from the latest of them. */
const recordPassed = (state: WorkflowTriggers, passed: SchedulePassed) =>
  Effect.gen(function* () {
    const [placed] = yield* placeFacts(
      [
        {
          type: schedulePassed,
          data: passed,
          metadata: { definition: { type: "workflow", name: state.name, version: state.version } }
        }
      ],
      `playbook:${state.playbook}`
    )
    const fact = {
      ...placed!,
      id: derivedFactId([state.org, state.playbook, state.name, passed.reference, passed.due])
    }
    const ledger = yield* Ledger
    return yield* ledger
      .append([{ stream: triggerStream(state.org, state.playbook, state.name), expected: "any", facts: [fact] }])
      .pipe(
        Effect.as(true),
        Effect.catchTag("VersionConflict", () => Effect.succeed(false))
      )
  })

/**
 * Fires one schedule trigger that came due (workflow-format.md §12.3): the latest due time since the one it handled
 * last (or its activation, or the resume) starts a run under its derived id; the earlier ones are counted missed.
 * While the run it started earlier is going, the time is recorded passed and counted skipped.
 */
const fireSchedule = (due: TriggerDue, refusals: ReactionRefusals, now: number) =>
  Effect.gen(function* () {
    const state = yield* readState(due)
    if (state === undefined || state.status !== "active") return
    const activation = activationOf(state, due.what)
    if (activation === undefined) return
    const trigger = activation.trigger as ScheduleTriggerView
    const anchor = Date.parse(activation.activated_at)
    const after = Math.max(
      anchor,
      Date.parse(state.last_due[due.what] ?? activation.activated_at),
      state.resumed_at === undefined ? anchor : Date.parse(state.resumed_at)
    )
    const dues = dueTimesWithin(trigger, anchor, after, now)
    if (dues === undefined) return
    const dueText = new Date(dues.latest).toISOString()
    const refused = { org: state.org, playbook: state.playbook, name: state.name, version: state.version, trigger }
    const running = state.running[due.what]
    if (running !== undefined && (yield* isGoing(state, running))) {
      if (yield* recordPassed(state, { reference: due.what, due: dueText, count: dues.count, reason: "running" }))
        yield* refusals.count({
          ...refused,
          trigger: { kind: trigger.kind, reference: trigger.reference },
          count: dues.count,
          reason: `the ${trigger.kind} schedule's earlier run ${running} was still going`
        })
      return
    }
    const outcome = yield* startTriggeredRun(state, {
      kind: trigger.kind,
      reference: trigger.reference,
      version: state.version,
      runId: triggeredRunId(state.org, state.playbook, state.name, state.version, trigger.reference, dueText),
      input: { schedule: { due: dueText } },
      depth: 0,
      cause: activation.activated_id
    })
    if (outcome._tag === "Refused" && !outcome.forGood) return
    const missed = dues.count - (outcome._tag === "Started" ? 1 : 0)
    if (outcome._tag === "Refused")
      yield* recordPassed(state, { reference: due.what, due: dueText, count: dues.count, reason: outcome.reason })
    if (missed > 0)
      yield* refusals.count({
        ...refused,
        trigger: { kind: trigger.kind, reference: trigger.reference },
        count: missed,
        ...(outcome._tag === "Refused"
          ? {
              reason: outcome.reason,
              ...(outcome.kind === undefined ? {} : { kind: outcome.kind }),
              ...(outcome.because === undefined ? {} : { because: outcome.because })
            }
          : { reason: `the ${trigger.kind} schedule's time was missed while no instance ran` })
      })
  })

/**
 * One firing round: at most 64 of the schedule triggers and queues due by now, in due order. Whether more were due
 * than it fired, and when the next one is due.
 */
export const fireDue = (refusals: ReactionRefusals) =>
  Effect.gen(function* () {
    const views = yield* Views
    const now = yield* Clock.currentTimeMillis
    const nowText = new Date(now).toISOString()
    const page = yield* views.list(triggerDueView, triggerDuePartition, {
      direction: "ascending",
      limit: firedPerRound + 1
    })
    const due = page.filter((doc) => doc.sort <= nowText).slice(0, firedPerRound)
    yield* Effect.forEach(
      due,
      (doc) => {
        const what = doc.data as TriggerDue
        return (what.what === "queue" ? drainQueue(what, refusals) : fireSchedule(what, refusals, now)).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("RunLedger trigger host: a trigger could not fire", cause))
        )
      },
      { concurrency, discard: true }
    )
    const later = page.find((doc) => doc.sort > nowText)
    return {
      now,
      more: due.length === firedPerRound,
      next: later === undefined ? undefined : Date.parse(later.sort)
    }
  })
