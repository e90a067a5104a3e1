import type { Fact } from "../domain/Fact.js"
import type { StepEntry, StepOutcome } from "../workflow/engine/StepEntry.js"
import { hiddenInputFields, type WorkflowInputApplied, workflowInputApplied } from "../workflow/run/workflowFacts.js"

/** The event type a step entry shows as, by its outcome (workflow-format.md §16.3). */
const stepEventTypes: Readonly<Record<StepOutcome, string>> = {
  started: "step_started",
  waiting: "step_waiting",
  completed: "step_finished",
  raised: "step_failed",
  timed_out: "step_failed",
  cancelled: "step_failed",
  skipped: "step_skipped"
}

/** The step event types, as a filter of events names them. */
export const stepEventTypeNames: ReadonlySet<string> = new Set(Object.values(stepEventTypes))

/** How many steps the input event names. */
const namedSteps = 5

/** The data of a step's event: name, reference, run and times, and what its outcome adds. */
const stepData = (step: StepEntry): Record<string, unknown> => ({
  name: step.name,
  reference: step.reference,
  run: step.run,
  times: step.times,
  ...(step.outcome === "waiting" && step.waits_for !== undefined ? { waits_for: step.waits_for } : {}),
  ...(step.child === undefined ? {} : { run_id: step.child }),
  ...(stepEventTypes[step.outcome] === "step_failed" ? { outcome: step.outcome } : {}),
  ...(step.error === undefined ? {} : { error: step.error })
})

/** A fact, as the event store keeps it, or a step event derived from one. */
export interface DerivedEvent {
  readonly id: string
  readonly type: string
  readonly data: unknown
  readonly metadata: Fact["metadata"]
}

/**
 * The events one fact shows as (workflow-format.md §16.3): a `workflow_input_applied` is its input event — the
 * receipt, the step count, the first five steps `{ task, run, outcome }` and the output kinds, never the state
 * patch or the run's data — then one event per step it moved, id `<input id>_<n>`, caused by the step before it in
 * that input (or the input). Any other fact is itself.
 */
export const eventsOfFact = (fact: Fact): ReadonlyArray<DerivedEvent> => {
  if (fact.type !== workflowInputApplied) return [fact]
  const data = fact.data as WorkflowInputApplied
  const shown: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data))
    if (!(hiddenInputFields as ReadonlyArray<string>).includes(key)) shown[key] = value
  shown.steps = data.steps
    .slice(0, namedSteps)
    .map((step) => ({ task: step.name, run: step.run, outcome: step.outcome }))
  const input: DerivedEvent = { ...fact, data: shown }
  const steps = data.steps.map(
    (step, index): DerivedEvent => ({
      id: `${fact.id}_${index + 1}`,
      type: stepEventTypes[step.outcome],
      data: stepData(step),
      metadata: {
        ...fact.metadata,
        causation_id: step.caused_by === "input" ? fact.id : `${fact.id}_${step.caused_by + 1}`
      }
    })
  )
  return [input, ...steps]
}

/** The event of a step id `<input id>_<n>` in the input fact, if it names one. */
export const stepEventOf = (fact: Fact, n: number): DerivedEvent | undefined =>
  fact.type === workflowInputApplied ? eventsOfFact(fact)[n] : undefined
