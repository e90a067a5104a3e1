import { Clock, Effect, Option } from "effect"
import type { Fact } from "../../domain/Fact.js"
import { isPlaybookEvent } from "../../events/isPlaybookEvent.js"
import { placeFacts } from "../../ledger/decide.js"
import { readPartition } from "../../ledger/readPartition.js"
import { Ledger } from "../../ports/Ledger.js"
import { Views } from "../../ports/Views.js"
import { playbookStreamsPrefix } from "../../runs/runFacts.js"
import { loadWorkflowDocument } from "../run/loadWorkflowDocument.js"
import { WorkflowEngine } from "../run/WorkflowEngine.js"
import { startsThisMinute } from "./drainQueue.js"
import { depthOfFact, eventOfFact } from "./eventOfFact.js"
import { matchFilters } from "./matchFilters.js"
import { isOwnReaction } from "./ownRunGuard.js"
import type { ReactionRefusals, Refusal } from "./reactionRefusals.js"
import { startTriggeredRun } from "./startTriggeredRun.js"
import { type TriggerCursor, triggerCursorsPartition, triggerCursorsView } from "./triggerCursorsProjection.js"
import {
  derivedFactId,
  type TriggerStartQueued,
  triggerCursorMoved,
  triggerCursorStream,
  triggeredRunId,
  triggerStartQueued,
  triggerStream
} from "./triggerFacts.js"
import { workflowTriggersPartition, workflowTriggersView } from "./triggerStatesProjection.js"
import { queueBound, startsPerMinute, type TriggerActivation, type WorkflowTriggers } from "./WorkflowTriggers.js"

/** How many facts one step of the cursor reads. */
const pageSize = 256

/** The deepest chain a trigger starts a run for (workflow-format.md §12.4). */
export const maxTriggerDepth = 8

const eventReference = "/schedule/on"

/** What a page's matching has done to one workflow so far: starts made and starts queued. */
interface Tally {
  started: number
  queued: number
}

/** The form of the event trigger that applied when a fact was recorded, and its version (§12.5), if any. */
const formFor = (
  state: WorkflowTriggers,
  fact: Fact
): { version: number; activation: TriggerActivation } | undefined => {
  const at = fact.metadata.global_position
  if (state.status !== "active") return undefined
  if (
    state.paused_position !== undefined &&
    state.resumed_position !== undefined &&
    at > state.paused_position &&
    at < state.resumed_position
  )
    return undefined
  const activation = state.triggers.find((kept) => kept.trigger.kind === "event")
  if (activation !== undefined && at >= activation.activated_position) return { version: state.version, activation }
  const earlier = state.earlier_event
  if (earlier !== undefined && at >= earlier.activated_position && at < earlier.until_position)
    return { version: earlier.version, activation: earlier }
  return undefined
}

/** Appends a start held back for a later minute, once however many instances hold it back. */
const queueStart = (state: WorkflowTriggers, queued: TriggerStartQueued) =>
  Effect.gen(function* () {
    const [placed] = yield* placeFacts(
      [
        {
          type: triggerStartQueued,
          data: queued,
          metadata: { definition: { type: "workflow", name: state.name, version: queued.version } }
        }
      ],
      `playbook:${state.playbook}`
    )
    const fact = { ...placed!, id: derivedFactId([queued.run_id, triggerStartQueued]) }
    yield* Effect.flatMap(Ledger, (ledger) =>
      ledger.append([{ stream: triggerStream(state.org, state.playbook, state.name), expected: "any", facts: [fact] }])
    ).pipe(Effect.catchTag("VersionConflict", () => Effect.void))
  })

/**
 * Offers one playbook fact to one workflow's event trigger (workflow-format.md §12.2, §12.4): the form that applied
 * when it was recorded matches it; the guards (own runs, depth, rate) decide; the run starts under its derived id,
 * or waits in the queue, or is counted refused.
 */
const offer = (state: WorkflowTriggers, fact: Fact, tally: Tally, refusals: ReactionRefusals, failed: Set<string>) =>
  Effect.gen(function* () {
    const form = formFor(state, fact)
    if (form === undefined) return
    const engine = yield* WorkflowEngine
    const document = yield* loadWorkflowDocument({ ...state, version: form.version })
    const trigger = document.triggers.find((kept) => kept.kind === "event")
    if (trigger === undefined || trigger.kind !== "event") return
    const refused = (reason: string, extra: Partial<Refusal> = {}) =>
      refusals.count({
        org: state.org,
        playbook: state.playbook,
        name: state.name,
        version: form.version,
        trigger: { kind: "event", reference: eventReference },
        count: 1,
        reason,
        ...extra
      })
    const match = yield* matchFilters(engine.evaluator, trigger, eventOfFact(fact))
    const failureKey = `${state.name}@${form.version}`
    if (match.failure !== undefined && !failed.has(failureKey)) {
      failed.add(failureKey)
      yield* refused(`a filter failed on an event and declined it: ${match.failure}`)
    }
    if (!match.matched) return
    if (yield* isOwnReaction(fact, state.org, state.playbook, state.name)) return
    const depth = depthOfFact(fact)
    if (depth > maxTriggerDepth)
      return yield* refused(`the event is ${depth} reactions deep, past the ${maxTriggerDepth} a trigger follows`)
    const runId = triggeredRunId(state.org, state.playbook, state.name, form.version, eventReference, fact.id)
    const queued: TriggerStartQueued = { run_id: runId, version: form.version, record_id: fact.id, depth }
    const hold = Effect.gen(function* () {
      if (state.queued.length + tally.queued >= queueBound)
        return yield* refused(`the event trigger already holds ${queueBound} starts for later minutes`)
      tally.queued++
      yield* queueStart(state, queued)
    })
    const used = startsThisMinute(state, yield* Clock.currentTimeMillis) + tally.started
    if (state.queued.length + tally.queued > 0 || used >= startsPerMinute) return yield* hold
    const outcome = yield* startTriggeredRun(state, {
      kind: "event",
      reference: eventReference,
      version: form.version,
      runId,
      input: [eventOfFact(fact)],
      depth,
      cause: fact.id
    })
    if (outcome._tag === "Started") {
      tally.started++
      return
    }
    if (!outcome.forGood) return yield* hold
    yield* refused(outcome.reason, {
      ...(outcome.kind === undefined ? {} : { kind: outcome.kind }),
      ...(outcome.because === undefined ? {} : { because: outcome.because })
    })
  }).pipe(
    Effect.catchAllDefect((defect) => Effect.logWarning("RunLedger trigger host: a fact could not be offered", defect))
  )

/** The position just before a record, in the playbook's facts: where a new cursor starts (undefined: the start). */
const positionBefore = (org: string, playbook: string, recordId: string) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const record = Option.getOrUndefined(yield* ledger.readFact(recordId))
    if (record === undefined) return undefined
    const [before] = yield* ledger.readAll({
      direction: "backward",
      from: record.position,
      limit: 1,
      filter: { streamPrefix: playbookStreamsPrefix(org, playbook) }
    })
    return before?.position
  })

/**
 * Matches a playbook's facts against its workflows' event triggers from its cursor on, in global order, page by page
 * (ADR 0283): each page is offered to every workflow with an event trigger, then the cursor moves past it at the
 * version it was read at. Another instance that moved it first wins; this one stops (its starts were the same runs).
 */
export const matchEvents = (org: string, playbook: string, refusals: ReactionRefusals, failed: Set<string>) =>
  Effect.gen(function* () {
    const views = yield* Views
    const ledger = yield* Ledger
    for (;;) {
      const doc = yield* views.get({
        view: triggerCursorsView,
        partition: triggerCursorsPartition,
        id: `${org}/${playbook}`
      })
      const cursor = Option.getOrUndefined(doc)?.data as TriggerCursor | undefined
      if (cursor === undefined) return
      const from = cursor.position ?? (yield* positionBefore(org, playbook, cursor.first_record))
      const page = yield* ledger.readAll({
        direction: "forward",
        limit: pageSize,
        ...(from === undefined ? {} : { from }),
        filter: { streamPrefix: playbookStreamsPrefix(org, playbook) }
      })
      if (page.length === 0) return
      const states = (yield* readPartition(workflowTriggersView, workflowTriggersPartition(org, playbook)))
        .map((kept) => kept.data as WorkflowTriggers)
        .filter(
          (state) => state.triggers.some((kept) => kept.trigger.kind === "event") || state.earlier_event !== undefined
        )
      const tallies = new Map(states.map((state) => [state.name, { started: 0, queued: 0 }]))
      for (const { fact } of page) {
        if (!isPlaybookEvent(fact)) continue
        for (const state of states) yield* offer(state, fact, tallies.get(state.name)!, refusals, failed)
      }
      const [moved] = yield* placeFacts(
        [{ type: triggerCursorMoved, data: { position: page[page.length - 1]!.position } }],
        `playbook:${playbook}`
      )
      const appended = yield* ledger
        .append([{ stream: triggerCursorStream(org, playbook), expected: cursor.version, facts: [moved!] }])
        .pipe(
          Effect.as(true),
          Effect.catchTag("VersionConflict", () => Effect.succeed(false))
        )
      if (!appended || page.length < pageSize) return
    }
  })
