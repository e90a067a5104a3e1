import { runEndingTypes } from "../../interactions/interactionFacts.js"
import type { Projection } from "../../ports/Views.js"
import type { RunStateData } from "../engine/Interpreter.js"
import { stateAfterPatch } from "../engine/statePatch.js"
import { type WorkflowInputApplied, workflowInputApplied } from "./workflowFacts.js"
import { isWorkflowRunFact } from "./workflowRunAddress.js"

/** The view of going workflow runs' states: one document per run stream, removed when the run ends. */
export const workflowStatesView = "workflow_states"

/** The one partition of the states, keyed by run stream. */
export const workflowStatesPartition = "runs"

/** A going workflow run as the engine loads it: its state, and the version of its stream the state is at. */
export interface WorkflowStateDoc {
  readonly state?: RunStateData
  /** The position of the last fact of the run's stream: the expected version of the next input's append. */
  readonly version: number
  readonly inputs: number
}

/**
 * Folds a workflow run's facts into its state (architecture.md, Facts): each `workflow_input_applied` applies its
 * patch, so loading a run reads one document however long its history, and nothing is evaluated again. Every fact
 * of the stream moves the version the next append expects.
 */
export const workflowStatesProjection: Projection = {
  view: workflowStatesView,
  types: ["run_started", workflowInputApplied, "run_cancel_requested", ...runEndingTypes],
  keys: (fact) =>
    isWorkflowRunFact(fact)
      ? [{ view: workflowStatesView, partition: workflowStatesPartition, id: fact.metadata.stream }]
      : [],
  apply: (current, fact, key) => {
    if ((runEndingTypes as ReadonlyArray<string>).includes(fact.type)) return undefined
    const doc = current?.data as WorkflowStateDoc | undefined
    const version = fact.metadata.position
    if (fact.type === "run_started") return { id: key.id, sort: fact.metadata.at, data: { version, inputs: 0 } }
    if (doc === undefined) return undefined
    if (fact.type !== workflowInputApplied) return { ...current!, data: { ...doc, version } }
    const data = fact.data as WorkflowInputApplied
    const state = stateAfterPatch(doc.state, data.patch)
    return { ...current!, data: { state, version, inputs: doc.inputs + 1 } satisfies WorkflowStateDoc }
  }
}
