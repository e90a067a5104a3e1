import type { Projection, ViewKey } from "../../ports/Views.js"
import { type WorkflowInputApplied, workflowInputApplied } from "../run/workflowFacts.js"
import { isWorkflowRunFact } from "../run/workflowRunAddress.js"

/** The view of the open calls under each root workflow run: partition `<org>/<playbook>`, one document per tree. */
export const openCallsView = "workflow_open_calls"

/** The open calls among all runs under one root run (workflow-format.md §7.3). */
export interface OpenCallsOfTree {
  readonly open: number
}

/** The document of the tree whose root run is `root`. */
export const openCallsKey = (org: string, playbook: string, root: string): ViewKey => ({
  view: openCallsView,
  partition: `${org}/${playbook}`,
  id: root
})

/**
 * Folds the open calls of each call tree (ADR 0296): every input that changes how many calls its run has open
 * (`open_call_change`) moves its tree's count, the tree being named by the chain its facts carry, the root run's
 * id. An input that changes nothing touches no document; a tree with no open call has none.
 */
export const openCallsProjection: Projection = {
  view: openCallsView,
  types: [workflowInputApplied],
  keys: (fact) => {
    const change = (fact.data as WorkflowInputApplied).open_call_change
    if (change === undefined || !isWorkflowRunFact(fact)) return []
    const [, org, playbook] = fact.metadata.stream.split("/")
    return [openCallsKey(org!, playbook!, fact.metadata.correlation_id ?? fact.metadata.run_id!)]
  },
  apply: (current, fact, key) => {
    const before = (current?.data as OpenCallsOfTree | undefined)?.open ?? 0
    const open = Math.max(0, before + ((fact.data as WorkflowInputApplied).open_call_change ?? 0))
    return open === 0 ? undefined : { id: key.id, sort: key.id, data: { open } satisfies OpenCallsOfTree }
  }
}
