import { runEndingTypes } from "../../interactions/interactionFacts.js"
import type { Projection } from "../../ports/Views.js"
import { type WorkflowInputApplied, workflowInputApplied } from "./workflowFacts.js"
import { isWorkflowRunFact } from "./workflowRunAddress.js"

/** The view of the playbook's listening runs: partition `<org>/<playbook>`, one document per listening run. */
export const workflowListensView = "workflow_listens"

/** The partition of a playbook's listening runs. */
export const workflowListensPartition = (org: string, playbook: string): string => `${org}/${playbook}`

/** The most listening runs a playbook offers its events to; beyond, a listen hears only events sent to its run. */
export const maxListeningRuns = 4_096

/** A listening run: its stream and the literal event types its open listens hear. */
export interface WorkflowListening {
  readonly stream: string
  readonly types: ReadonlyArray<string>
}

/**
 * Folds which runs listen for which playbook events (workflow-format.md §8.1): each input sets the types its run's
 * open listens name literally; a run that listens for nothing, or ends, leaves the view.
 */
export const workflowListensProjection: Projection = {
  view: workflowListensView,
  types: [workflowInputApplied, ...runEndingTypes],
  keys: (fact) => {
    if (!isWorkflowRunFact(fact)) return []
    const [, org, playbook] = fact.metadata.stream.split("/")
    return [
      { view: workflowListensView, partition: workflowListensPartition(org!, playbook!), id: fact.metadata.stream }
    ]
  },
  apply: (_current, fact, key) => {
    if (fact.type !== workflowInputApplied) return undefined
    const data = fact.data as WorkflowInputApplied
    if (data.ended || data.listening === undefined) return undefined
    return {
      id: key.id,
      sort: fact.metadata.at,
      data: { stream: key.id, types: data.listening } satisfies WorkflowListening
    }
  }
}
