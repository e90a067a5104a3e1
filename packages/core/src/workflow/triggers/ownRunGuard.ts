import { Effect, Option } from "effect"
import type { Fact } from "../../domain/Fact.js"
import { Views } from "../../ports/Views.js"
import type { RunState } from "../../runs/RunRecord.js"
import { runsPartition, runsView } from "../../runs/runsProjection.js"
import { reactionRefused } from "./reactionRefusals.js"

/** The most calls above a run (workflow-format.md §15): how far up the guard looks. */
const callsAbove = 8

/**
 * Whether a fact is about one of the workflow's own runs, a run one of them started, or an event one of them
 * emitted, or is the workflow's own `reaction_refused` (workflow-format.md §12.4): such a fact never starts it.
 * Runs are followed up through the steps that called them (`within`).
 */
export const isOwnReaction = (fact: Fact, org: string, playbook: string, name: string) =>
  Effect.gen(function* () {
    const definition = fact.metadata.definition
    const ours = definition?.type === "workflow" && definition.name === name
    if (ours && (fact.metadata.run_id !== undefined || fact.type === reactionRefused)) return true
    let runId = fact.metadata.run_id
    const views = yield* Views
    for (let level = 0; runId !== undefined && level <= callsAbove; level++) {
      const doc = yield* views.get({ view: runsView, partition: runsPartition(org, playbook), id: runId })
      const run = Option.getOrUndefined(doc)?.data as RunState | undefined
      if (run === undefined) return false
      if (run.type === "workflow" && run.name === name) return true
      runId = run.within?.run_id
    }
    return false
  })
