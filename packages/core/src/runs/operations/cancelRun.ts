import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { conflict } from "../../domain/Rejection.js"
import { runDecider } from "../../ledger/decide.js"
import { foldRun } from "../foldRun.js"
import { publicRun, Run, type RunState } from "../RunRecord.js"
import { readRun } from "../readRun.js"
import { runStream } from "../runFacts.js"
import { runSummary } from "../runSummary.js"

/**
 * The runs that end within the request that started them and that nothing can cancel from outside: every such run
 * but a reasoning run, which stops at a cancel while its loop goes on (function-formats.md §2.9, ADR 0329).
 */
const endsWithinItsRequest = (run: RunState): boolean => !run.finishes_later && run.type !== "reasoning"

/** A cancel's reason: 1 to 1,024 characters with no control character. */
const CancelReason = Schema.String.pipe(
  Schema.filter(
    (reason) =>
      (reason.length >= 1 && reason.length <= 1024 && !/\p{Cc}/u.test(reason)) ||
      "must be 1 to 1,024 characters with no control character",
    { jsonSchema: { minLength: 1, maxLength: 1024 } }
  ),
  Schema.annotations({ description: "Why the run is cancelled; the run keeps it as the detail of its ending." })
)

/** cancel_run: records the request on the run at once; the run stops its tasks and ends cancelled, kind requested. */
export const cancelRun = declare({
  name: "cancel_run",
  title: "Cancel a run",
  description:
    "Cancel a run that is still going: a workflow's run, a reasoning run, or an interaction whose request waits. The request is recorded at once and the run ends rejected with the reason cancelled; read it with get_run. Runs that end within the request that started them cannot be cancelled.",
  tag: "runs",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/runs/{run_id}/cancel" },
  input: Schema.Struct({
    run_id: Uuid.annotations({ description: "The run's id." }),
    reason: Schema.optional(CancelReason)
  }),
  output: Run,
  permission: "playbook:write",
  hints: { idempotent: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found", "conflict"],
  summarize: runSummary,
  handle: (input, { caller, org, playbook }) =>
    Effect.gen(function* () {
      const known = yield* readRun(org, playbook!.id, input.run_id)
      const { state } = yield* runDecider<RunState | undefined, ReturnType<typeof conflict>, never>({
        stream: runStream(org, playbook!.id, known.run_id),
        initial: undefined,
        fold: foldRun,
        decide: (run) => {
          if (run === undefined || run.status !== "started")
            return Effect.fail(conflict(`The run ${input.run_id} has ended, so there is nothing to cancel.`))
          if (endsWithinItsRequest(run))
            return Effect.fail(
              conflict(
                `The run ${input.run_id} ends within the request that started it, so it cannot be cancelled from outside.`
              )
            )
          if (run.cancel_requested_at !== undefined) return Effect.succeed([])
          return Effect.succeed([
            {
              type: "run_cancel_requested",
              data: { kind: "requested", ...(input.reason === undefined ? {} : { reason: input.reason }) },
              metadata: {
                run_id: run.run_id,
                correlation_id: run.run_id,
                definition: { type: run.type, name: run.name, version: run.definition_version }
              }
            }
          ])
        },
        by: caller.id,
        what: `the run ${input.run_id}`
      })
      return publicRun(state ?? known)
    })
})
