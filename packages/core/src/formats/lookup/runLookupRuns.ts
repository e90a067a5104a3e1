import { Effect, Either } from "effect"
import { reject } from "../../domain/Rejection.js"
import type { RunState } from "../../runs/RunRecord.js"
import { runsPartition, runsView } from "../../runs/runsProjection.js"
import type { FormatEnding, FormatRun } from "../DefinitionFormat.js"
import type { LookupRuns } from "./readLookup.js"

/** How many runs one page of the runs view holds, and how many a lookup reads through at most. */
const pageSize = 200
const mostRead = 10_000

/**
 * Reads the outputs of another definition's runs (decision F1): its runs of one status, newest first by their
 * start, at most `limit`, each as `{ run_id, started_at, ended_at, output }` (a rejection's `rejection` in place
 * of `output`). The output is that list; the record says what was read. At most 10,000 runs are looked through.
 */
export const runLookupRuns = (run: FormatRun, runs: LookupRuns): Effect.Effect<FormatEnding> =>
  Effect.gen(function* () {
    if (run.playbook === undefined)
      return { _tag: "Rejected", rejection: reject("internal", "A lookup of runs needs its playbook.") } as const
    const { views, org, id } = run.playbook
    const found: Array<Record<string, unknown>> = []
    let after: { sort: string; id: string } | undefined
    for (let read = 0; read < mostRead && found.length < runs.limit; read += pageSize) {
      const page = yield* Effect.either(
        views.list(runsView, runsPartition(org, id), {
          direction: "descending",
          limit: pageSize,
          ...(after === undefined ? {} : { after })
        })
      )
      if (Either.isLeft(page))
        return {
          _tag: "Rejected",
          rejection: reject("unavailable", "The playbook's runs cannot be read now; run it again.", { retryAfter: 1 })
        } as const
      for (const doc of page.right) {
        const state = doc.data as RunState
        if (state.type !== runs.type || state.name !== runs.name || state.status !== runs.status) continue
        if (found.length < runs.limit)
          found.push({
            run_id: state.run_id,
            started_at: state.started_at,
            ...(state.ended_at === undefined ? {} : { ended_at: state.ended_at }),
            ...(state.status === "succeeded" ? { output: state.output } : { rejection: state.rejection ?? null })
          })
      }
      if (page.right.length < pageSize) break
      const last = page.right[page.right.length - 1]!
      after = { sort: last.sort, id: last.id }
    }
    return {
      _tag: "Succeeded",
      output: found,
      record: { type: runs.type, name: runs.name, status: runs.status, count: found.length }
    } as const
  })
