import type { DraftFact } from "../../ledger/decide.js"
import type { RunEnding } from "../engine/EngineOutput.js"

/** The most bytes a workflow's output may hold as JSON (seed: "A workflow's output exceeds 1,048,574 bytes"). */
export const workflowOutputBound = 1_048_574

/**
 * The fact that ends a workflow run (workflow-format.md §14): `run_succeeded` with its output (no record), or
 * `run_rejected` with the reason, kind, because, detail and the step's `cause`; an output past the bound ends
 * it `conflict`/`oversized` instead.
 */
export const endingFact = (ending: RunEnding): Pick<DraftFact, "type" | "data"> => {
  if (ending.status === "succeeded") {
    const bytes = new TextEncoder().encode(JSON.stringify(ending.output ?? null)).length
    if (bytes <= workflowOutputBound) return { type: "run_succeeded", data: { output: ending.output, record: null } }
    return {
      type: "run_rejected",
      data: {
        reason: "conflict",
        kind: "oversized",
        detail: `The workflow's output holds ${bytes} bytes as JSON, more than the ${workflowOutputBound} a run may give.`
      }
    }
  }
  const { status: _status, ...rejection } = ending
  return { type: "run_rejected", data: rejection }
}
