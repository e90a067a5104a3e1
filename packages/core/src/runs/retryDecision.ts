import type { Fact } from "../domain/Fact.js"
import { conflict, type Rejection, reject } from "../domain/Rejection.js"
import type { RunState } from "./RunRecord.js"

/** What a request under a run id that already names a run gets (HTTP "Retrying under a run id"). */
export type RetryDecision =
  | { readonly _tag: "Answer" }
  | { readonly _tag: "Refuse"; readonly rejection: Rejection }
  | { readonly _tag: "Attempt" }
  /** A started reasoning run is taken up again from what it recorded (function-formats.md §2.9, decision F3). */
  | { readonly _tag: "Resume" }

/**
 * The delay, in seconds, after which the same request may succeed, where a run rejected `unavailable` keeps it as
 * `retry_after_ms` in its record (the only place a run's ending keeps it; ADR 0308).
 */
const retryAfterOfRun = (run: RunState): number | undefined => {
  const kept = (run.record as { retry_after_ms?: unknown } | undefined)?.retry_after_ms
  return run.rejection?.reason === "unavailable" && typeof kept === "number"
    ? Math.max(1, Math.ceil(kept / 1000))
    : undefined
}

/** The run's recorded rejection as the caller gets it again, with the delay its record keeps. */
export const rejectionOfRun = (run: RunState): Rejection => {
  const retryAfter = retryAfterOfRun(run)
  return reject(
    (run.rejection?.reason ?? "internal") as Rejection["reason"],
    run.rejection?.detail ?? "The run was rejected.",
    {
      ...(run.rejection?.kind === undefined ? {} : { kind: run.rejection.kind }),
      ...(run.rejection?.because === undefined ? {} : { because: run.rejection.because }),
      ...(run.rejection?.errors === undefined ? {} : { errors: run.rejection.errors }),
      ...(retryAfter === undefined ? {} : { retryAfter }),
      extras: { run_id: run.run_id, ...(run.incident === undefined ? {} : { incident: run.incident }) }
    }
  )
}

/** The tool calls a run recorded, and whether each only read. */
const toolCallsOf = (facts: ReadonlyArray<Fact>) =>
  facts
    .filter((fact) => fact.type === "tool_call_started")
    .map((fact) => (fact.data as { read_only?: boolean }).read_only === true)

/**
 * Decides, for a run with the same definition and input, whether to answer what it recorded, refuse as it ended,
 * run a new attempt, or resume a started reasoning run: the seed's table row by row, with its three exceptions.
 */
export const retryDecision = (run: RunState, facts: ReadonlyArray<Fact>): RetryDecision => {
  if (run.status === "succeeded") return { _tag: "Answer" }
  if (run.status === "rejected" && ["invalid_input", "cancelled", "unanswered"].includes(run.rejection?.reason ?? ""))
    return { _tag: "Refuse", rejection: rejectionOfRun(run) }
  if (run.status === "started" && run.finishes_later) return { _tag: "Answer" }
  if (run.status === "started" && run.type === "reasoning") return { _tag: "Resume" }
  if (run.type === "workflow")
    return {
      _tag: "Refuse",
      rejection: conflict(
        `The workflow run ${run.run_id} ended without a final result, and a workflow runs once for its id; send the request again under a new run id.`,
        "unworkable"
      )
    }
  const calls = toolCallsOf(facts)
  if (calls.length > 0 || (run.status === "started" && run.calls_tools)) {
    const onlyRead = calls.length > 0 && calls.every((readOnly) => readOnly)
    return {
      _tag: "Refuse",
      rejection: reject(
        "conflict",
        onlyRead
          ? `The run ${run.run_id} called tools that only read, so nothing was changed, and it is not run again under its id; read what it called with get_run_history, then run it under a new id.`
          : `The run ${run.run_id} may have called tools, so it is not run again under its id; read what it called with get_run_history, check its effects outside the playbook, then run it under a new id.`,
        { kind: "tools_called", ...(onlyRead ? { because: "only_read" } : {}), extras: { run_id: run.run_id } }
      )
    }
  }
  return { _tag: "Attempt" }
}
