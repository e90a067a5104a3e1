import type { DraftFact } from "../../ledger/decide.js"
import type { RunEnding } from "../engine/EngineOutput.js"

/**
 * The fact that ends a workflow run (workflow-format.md §14): `run_succeeded` with its output (no record), or
 * `run_rejected` with the reason, kind, because, detail and the step's `cause`. The interpreter has already ended
 * an output past the bound as `conflict`/`oversized`, so the ending is recorded as it settled.
 */
export const endingFact = (ending: RunEnding): Pick<DraftFact, "type" | "data"> => {
  if (ending.status === "succeeded") return { type: "run_succeeded", data: { output: ending.output, record: null } }
  const { status: _status, ...rejection } = ending
  return { type: "run_rejected", data: rejection }
}
