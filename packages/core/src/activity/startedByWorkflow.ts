import type { Fact } from "../domain/Fact.js"

/**
 * Whether a fact is of a run a workflow's call started: every fact of such a run names the call in `called_by`
 * (HTTP "Event fields"). Such a run has no new or broken row of its own; the workflow's run stands for it.
 */
export const startedByWorkflow = (fact: Fact): boolean =>
  fact.metadata.called_by !== undefined && fact.metadata.called_by !== null
