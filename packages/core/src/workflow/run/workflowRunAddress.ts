import type { Fact } from "../../domain/Fact.js"

/** Whether a fact is about a workflow's run: its stream is a run stream and its definition a workflow. */
export const isWorkflowRunFact = (fact: Fact): boolean =>
  fact.metadata.definition?.type === "workflow" && fact.metadata.stream.includes("/runs/")

/** The call of a workflow step a run answers, as its facts' `called_by` carries it. */
export interface CalledBy {
  readonly run_id: string
  readonly reference: string
  readonly run: number
}

/** The `called_by` of a fact, when it is well formed. */
export const calledByOf = (fact: Fact): CalledBy | undefined => {
  const calledBy = fact.metadata.called_by as Partial<CalledBy> | undefined
  return typeof calledBy?.run_id === "string" &&
    typeof calledBy.reference === "string" &&
    typeof calledBy.run === "number"
    ? (calledBy as CalledBy)
    : undefined
}

/** The call key of a call (workflow-format.md §16.1): `<run id> <task reference> <task run>`. */
export const callKeyOf = (calledBy: CalledBy): string => `${calledBy.run_id} ${calledBy.reference} ${calledBy.run}`

/** The stream of the run that called the run of `stream`: a run of the same playbook. */
export const callerStreamOf = (stream: string, calledBy: CalledBy): string =>
  `${stream.slice(0, stream.lastIndexOf("/runs/"))}/runs/${calledBy.run_id}`
