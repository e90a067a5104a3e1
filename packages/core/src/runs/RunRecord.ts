import { Schema } from "effect"
import { DefinitionType } from "../definitions/DefinitionType.js"
import { CallerReference } from "../domain/Caller.js"
import { InputIssue } from "../domain/Rejection.js"

/** How a rejected run was refused, as a run carries it. */
export const RunRejection = Schema.Struct({
  reason: Schema.String,
  kind: Schema.optional(Schema.String),
  because: Schema.optional(Schema.String),
  detail: Schema.optional(Schema.String),
  errors: Schema.optional(Schema.Array(InputIssue)),
  /** On a workflow rejection: the step whose uncaught error ended it, and the callee's ending (seed "Runs and results"). */
  cause: Schema.optional(
    Schema.Struct({
      step: Schema.String,
      run_id: Schema.optional(Schema.String),
      status: Schema.optional(Schema.Literal("rejected", "failed", "unreachable", "timed_out")),
      reason: Schema.optional(Schema.String),
      kind: Schema.optional(Schema.String),
      because: Schema.optional(Schema.String)
    })
  )
}).annotations({ identifier: "RunRejection" })

/** The step of a workflow run that started this run. */
export const RunWithin = Schema.Struct({ run_id: Schema.String, step: Schema.String })

/** A run as it stands (HTTP "Runs and results"): what get_run returns, less the Studio link. */
export const Run = Schema.Struct({
  run_id: Schema.String,
  type: DefinitionType,
  name: Schema.String,
  definition_version: Schema.Number,
  status: Schema.Literal("started", "succeeded", "rejected", "failed"),
  started_at: Schema.String,
  ended_at: Schema.optional(Schema.String),
  started_by: CallerReference,
  output: Schema.optional(Schema.Unknown),
  record: Schema.optional(Schema.Unknown),
  rejection: Schema.optional(RunRejection),
  within: Schema.optional(RunWithin),
  acts_for: Schema.optional(Schema.String),
  output_shape: Schema.optional(Schema.String),
  studio: Schema.optional(Schema.String)
}).annotations({ identifier: "Run" })
export type Run = typeof Run.Type

/** What the runs view keeps beside a run's public fields, for the retry table and the filters. */
export interface RunState extends Run {
  readonly input_sha256: string
  readonly finishes_later: boolean
  readonly calls_tools: boolean
  readonly attempts: number
  readonly cancel_requested_at?: string
  /** The call of a workflow step that started this run (`metadata.called_by`), carried onto its ending facts. */
  readonly called_by?: unknown
  /** A failed run's incident: the log entry of its failure, the `instance` of its 500 (ADR 0413). */
  readonly incident?: string
}

/** The run as the API shows it: the public fields only. */
export const publicRun = ({
  input_sha256: _digest,
  finishes_later: _later,
  calls_tools: _tools,
  attempts: _attempts,
  cancel_requested_at: _cancel,
  called_by: _calledBy,
  incident: _incident,
  ...run
}: RunState): Run => run
