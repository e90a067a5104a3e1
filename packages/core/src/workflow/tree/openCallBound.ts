import { Effect, Option } from "effect"
import type { StoreUnavailable } from "../../ports/StoreUnavailable.js"
import { Views } from "../../ports/Views.js"
import type { CallAnswer } from "../engine/WorkflowInput.js"
import type { RunContext } from "../run/RunContext.js"
import type { StartCallOutput } from "../run/startCall.js"
import { WorkflowEngine } from "../run/WorkflowEngine.js"
import { type OpenCallsOfTree, openCallsKey } from "./openCallsProjection.js"

/** The open calls a deployment allows under one root run when it says nothing (workflow-format.md §7.3, §15). */
export const defaultMaxOpenCalls = 1_000

/** The least and most open calls a deployment may allow under one root run. */
export const openCallsSettingRange = [1, 9_999] as const

/**
 * The calls an input starts beyond its tree's bound of open calls (§7.3, ADR 0296), each with the answer it takes at
 * once, refused as `conflict` (the calling task raises `ERR/runtime` 409): only when the input opens more calls than
 * it closes, the tree's count is read and the last calls it starts are refused until the tree is back within the
 * bound. An input that opens no more calls than it closes reads nothing, nor does a root run's first input
 * (`firstOfRoot`): nothing under the root can be open before the root's first step.
 */
export const callsBeyondBound = (
  context: RunContext,
  change: number,
  calls: ReadonlyArray<StartCallOutput>,
  firstOfRoot: boolean
): Effect.Effect<ReadonlyMap<string, CallAnswer>, StoreUnavailable, Views | WorkflowEngine> =>
  Effect.gen(function* () {
    if (change <= 0 || calls.length === 0) return new Map()
    const bound = (yield* WorkflowEngine).maxOpenCalls
    const doc = firstOfRoot
      ? Option.none()
      : yield* Effect.flatMap(Views, (views) =>
          views.get(openCallsKey(context.org, context.playbook, context.correlationId))
        )
    const open = (Option.getOrUndefined(doc)?.data as OpenCallsOfTree | undefined)?.open ?? 0
    const excess = Math.min(calls.length, open + change - bound)
    const answer: CallAnswer = {
      status: "rejected",
      reason: "conflict",
      kind: "open_calls",
      detail: `The workflow runs under the root run ${context.correlationId} hold ${bound} open calls, the most this runtime allows; a step may call again once one of them ends.`
    }
    return new Map(calls.slice(calls.length - Math.max(0, excess)).map((call) => [call.key, answer]))
  })
