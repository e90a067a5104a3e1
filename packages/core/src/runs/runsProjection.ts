import type { Projection } from "../ports/Views.js"
import { foldRun } from "./foldRun.js"
import type { RunState } from "./RunRecord.js"
import { runFactTypes } from "./runFacts.js"

/** The view of a playbook's runs: partition `<org>/<playbook>`, one document per run, sorted by first start. */
export const runsView = "runs"

/** The partition of a playbook's runs. */
export const runsPartition = (org: string, playbook: string): string => `${org}/${playbook}`

/** Folds run facts into the `runs` view. */
export const runsProjection: Projection = {
  view: runsView,
  types: runFactTypes,
  keys: (fact) => {
    const [, org, playbook, , runId] = fact.metadata.stream.split("/")
    return [{ view: runsView, partition: runsPartition(org, playbook), id: runId }]
  },
  apply: (current, fact, key) => {
    const next = foldRun(current?.data as RunState | undefined, fact)
    return next === undefined ? undefined : { id: key.id, sort: next.started_at, data: next }
  }
}
