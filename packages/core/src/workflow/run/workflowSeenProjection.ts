import { Effect, Option } from "effect"
import type { StoreUnavailable } from "../../ports/StoreUnavailable.js"
import { type Projection, Views } from "../../ports/Views.js"
import type { WorkflowInput } from "../engine/WorkflowInput.js"
import { type WorkflowInputApplied, workflowInputApplied } from "./workflowFacts.js"
import { isWorkflowRunFact } from "./workflowRunAddress.js"

/**
 * The view of the events each workflow run took or emitted (ADR 0420): partition the run's stream, one document per
 * event id (and per record id of an offered event), so the state a run carries from input to input does not grow
 * with the events it took, and a repeat is known by one read.
 */
export const workflowSeenView = "workflow_seen"

/** A run's seen event: the input that took (or emitted) it. */
export interface WorkflowSeenEvent {
  readonly input: string
}

/** Folds the ids each applied input took or emitted (`workflow_input_applied.seen`) into a document each. */
export const workflowSeenProjection: Projection = {
  view: workflowSeenView,
  types: [workflowInputApplied],
  keys: (fact) => {
    if (!isWorkflowRunFact(fact)) return []
    const seen = (fact.data as WorkflowInputApplied).seen ?? []
    return seen.map((id) => ({ view: workflowSeenView, partition: fact.metadata.stream, id }))
  },
  apply: (current, fact, key) =>
    current ?? { id: key.id, sort: fact.metadata.at, data: { input: fact.id } satisfies WorkflowSeenEvent }
}

/**
 * Whether the run of `stream` already took an event input's event (by its id, or an offered one by its record id)
 * or emitted it: a repeat, which the host does not apply (workflow-format.md §8.1).
 */
export const isRepeatedEvent = (
  stream: string,
  input: Extract<WorkflowInput, { kind: "event_received" }>
): Effect.Effect<boolean, StoreUnavailable, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const ids = input.offered === true && input.key !== input.event.id ? [input.event.id, input.key] : [input.event.id]
    const found = yield* Effect.forEach(ids, (id) => views.get({ view: workflowSeenView, partition: stream, id }), {
      concurrency: ids.length
    })
    return found.some(Option.isSome)
  })
