import type { DefinitionType } from "../definitions/DefinitionType.js"
import type { Fact } from "../domain/Fact.js"
import type { RunState } from "./RunRecord.js"
import type { AttemptResumed, RunFailed, RunRejected, RunStarted, RunSucceeded } from "./runFacts.js"

/** The step of a workflow run whose call started this run (`metadata.called_by`), as `within` names it. */
const withinOf = (fact: Fact): { within?: { run_id: string; step: string } } => {
  const calledBy = fact.metadata.called_by as { run_id?: unknown; reference?: unknown } | undefined
  if (typeof calledBy?.run_id !== "string" || typeof calledBy.reference !== "string") return {}
  return { within: { run_id: calledBy.run_id, step: calledBy.reference.replace(/^\//, "") } }
}

/** Folds one run fact into the run as it stands: the one place a run's state is derived. */
export const foldRun = (current: RunState | undefined, fact: Fact): RunState | undefined => {
  const at = fact.metadata.at
  switch (fact.type) {
    case "run_started": {
      const data = fact.data as RunStarted
      const definition = fact.metadata.definition!
      const {
        output: _o,
        record: _r,
        rejection: _j,
        ended_at: _e,
        cancel_requested_at: _c,
        ...kept
      } = current ?? ({} as RunState)
      return {
        ...kept,
        run_id: fact.metadata.run_id!,
        type: definition.type as DefinitionType,
        name: definition.name,
        definition_version: definition.version ?? 1,
        status: "started",
        started_at: current?.started_at ?? at,
        started_by: current?.started_by ?? data.started_by,
        input_sha256: data.input_sha256,
        finishes_later: data.finishes_later,
        calls_tools: data.calls_tools,
        attempts: data.attempt,
        ...(data.output_shape === undefined ? {} : { output_shape: data.output_shape }),
        ...withinOf(fact),
        ...(fact.metadata.called_by === undefined ? {} : { called_by: fact.metadata.called_by }),
        ...(fact.metadata.acts_for === undefined ? {} : { acts_for: fact.metadata.acts_for })
      }
    }
    case "run_succeeded": {
      const data = fact.data as RunSucceeded
      return current && { ...current, status: "succeeded", ended_at: at, output: data.output, record: data.record }
    }
    case "run_rejected": {
      const data = fact.data as RunRejected
      return (
        current && {
          ...current,
          status: "rejected",
          ended_at: at,
          rejection: {
            reason: data.reason,
            detail: data.detail,
            ...(data.kind === undefined ? {} : { kind: data.kind }),
            ...(data.because === undefined ? {} : { because: data.because }),
            ...(data.issues === undefined ? {} : { errors: data.issues }),
            ...(data.cause === undefined ? {} : { cause: data.cause })
          },
          ...(data.record === undefined ? {} : { record: data.record })
        }
      )
    }
    case "run_failed": {
      const data = fact.data as RunFailed
      return (
        current && {
          ...current,
          status: "failed",
          ended_at: at,
          rejection: { reason: "internal", detail: data.detail },
          ...(typeof data.incident === "string" ? { incident: data.incident } : {})
        }
      )
    }
    case "run_cancel_requested":
      return current && { ...current, cancel_requested_at: at }
    case "attempt_resumed":
      return current && { ...current, attempts: (fact.data as AttemptResumed).attempt }
    default:
      return current
  }
}
