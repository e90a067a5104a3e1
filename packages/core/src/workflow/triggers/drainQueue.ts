import { Clock, Effect, Option } from "effect"
import { placeFacts } from "../../ledger/decide.js"
import { Ledger } from "../../ports/Ledger.js"
import { Views } from "../../ports/Views.js"
import { runStream } from "../../runs/runFacts.js"
import { eventOfFact } from "./eventOfFact.js"
import type { ReactionRefusals } from "./reactionRefusals.js"
import { startTriggeredRun } from "./startTriggeredRun.js"
import { derivedFactId, triggerStartDropped, triggerStream } from "./triggerFacts.js"
import { type TriggerDue, workflowTriggersPartition, workflowTriggersView } from "./triggerStatesProjection.js"
import { type QueuedStart, startsPerMinute, type WorkflowTriggers } from "./WorkflowTriggers.js"

/** Starts used in the current minute, as the state counted them. */
export const startsThisMinute = (state: WorkflowTriggers, now: number): number =>
  state.event_minute === new Date(now).toISOString().slice(0, 16) ? state.event_starts : 0

/** Records that a queued start will never be made, so the queue moves on. */
const dropQueued = (state: WorkflowTriggers, queued: QueuedStart, reason: string) =>
  Effect.gen(function* () {
    const [placed] = yield* placeFacts(
      [
        {
          type: triggerStartDropped,
          data: { run_id: queued.run_id, reason },
          metadata: { definition: { type: "workflow", name: state.name, version: queued.version } }
        }
      ],
      `playbook:${state.playbook}`
    )
    const fact = { ...placed!, id: derivedFactId([queued.run_id, triggerStartDropped]) }
    yield* Effect.flatMap(Ledger, (ledger) =>
      ledger.append([{ stream: triggerStream(state.org, state.playbook, state.name), expected: "any", facts: [fact] }])
    ).pipe(Effect.catchTag("VersionConflict", () => Effect.void))
  })

/**
 * Takes a workflow's held-back event starts in order while its minute has room (workflow-format.md §12.4): each
 * starts under its derived id with the event read again from its record; one whose run another instance started
 * already is dropped; one the playbook refuses for good is dropped and counted refused; one it cannot take now stays
 * queued for a later round.
 */
export const drainQueue = (due: TriggerDue, refusals: ReactionRefusals) =>
  Effect.gen(function* () {
    const views = yield* Views
    const ledger = yield* Ledger
    const doc = yield* views.get({
      view: workflowTriggersView,
      partition: workflowTriggersPartition(due.org, due.playbook),
      id: due.name
    })
    const state = Option.getOrUndefined(doc)?.data as WorkflowTriggers | undefined
    if (state === undefined || state.status !== "active") return
    let used = startsThisMinute(state, yield* Clock.currentTimeMillis)
    for (const queued of state.queued) {
      if (used >= startsPerMinute) return
      if ((yield* ledger.streamVersion(runStream(state.org, state.playbook, queued.run_id))) > 0) {
        yield* dropQueued(state, queued, "the run had started already")
        continue
      }
      const record = Option.getOrUndefined(yield* ledger.readFact(queued.record_id))
      if (record === undefined) {
        yield* dropQueued(state, queued, "the event's record is gone")
        continue
      }
      const outcome = yield* startTriggeredRun(state, {
        kind: "event",
        reference: "/schedule/on",
        version: queued.version,
        runId: queued.run_id,
        input: [eventOfFact(record.fact)],
        depth: queued.depth,
        cause: queued.record_id
      })
      if (outcome._tag === "Started") {
        used++
        continue
      }
      if (!outcome.forGood) return
      yield* dropQueued(state, queued, outcome.reason)
      yield* refusals.count({
        org: state.org,
        playbook: state.playbook,
        name: state.name,
        version: queued.version,
        trigger: { kind: "event", reference: "/schedule/on" },
        count: 1,
        reason: outcome.reason,
        ...(outcome.kind === undefined ? {} : { kind: outcome.kind }),
        ...(outcome.because === undefined ? {} : { because: outcome.because })
      })
    }
  })
