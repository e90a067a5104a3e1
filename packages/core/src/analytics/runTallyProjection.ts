import type { Projection } from "../ports/Views.js"
import { foldRunTally, tallyFactTypes } from "./foldRunTally.js"
import type { RunTally } from "./RunTally.js"

/** The view analytics reads: partition `<org>/<playbook>`, one tally per run, sorted by the day it first started. */
export const runTallyView = "run_tallies"

/** Folds the facts of every run stream into the `run_tallies` view. */
export const runTallyProjection: Projection = {
  view: runTallyView,
  types: tallyFactTypes,
  keys: (fact) => {
    const [root, org, playbook, kind, runId] = fact.metadata.stream.split("/")
    return root === "playbook" && kind === "runs" && runId !== undefined
      ? [{ view: runTallyView, partition: `${org}/${playbook}`, id: runId }]
      : []
  },
  apply: (current, fact, key) => {
    const next = foldRunTally(current?.data as RunTally | undefined, fact)
    return next === undefined ? undefined : { id: key.id, sort: next.day, data: next }
  }
}
