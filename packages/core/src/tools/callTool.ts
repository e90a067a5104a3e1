import { Clock, Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import { type ToolAnswer, type ToolCallFailed, ToolServers } from "../ports/ToolServers.js"
import type { RunRecorder } from "../runs/runRecorder.js"
import { keptAnswer } from "./answerDocument.js"
import { sha256Of } from "./keepTexts.js"
import type { ToolCallAnswered, ToolCallFailedData, ToolCallStarted } from "./toolCallFacts.js"
import { toolServerFailed } from "./toolRefusals.js"
import { callWaitingOutRateLimit } from "./waitOutRateLimit.js"

/** One call to make and record: the tool, its arguments, the run it belongs to, its number and id. */
export interface RecordedCall {
  readonly server: string
  readonly tool: string
  readonly arguments: Record<string, unknown>
  /** The run the call belongs to (sent as `_meta`); absent for a call made by hand. */
  readonly runId?: string
  readonly callId: string
  /** Its number among the calls its stream records, from 1. */
  readonly number: number
  /** Whether its tool is marked `reads`. */
  readonly readOnly: boolean
  /** Whether the arguments and the answer are kept (the entry's `record_content`). */
  readonly keepContent: boolean
  readonly timeoutMs?: number
}

/** How a recorded call ended: the tool's answer, or the failure it never answered with; when and how long. */
export type CallOutcome =
  | {
      readonly _tag: "Answered"
      readonly answer: ToolAnswer
      readonly resultBytes: number
      readonly calledAt: string
    }
  | { readonly _tag: "Failed"; readonly failure: ToolCallFailed; readonly calledAt: string }

/**
 * Makes a call and records it as the seed says: `tool_call_started` before it is sent (the arguments kept first,
 * scrubbed, unless the entry turns content off), then `tool_call_answered` (the answer kept first) or
 * `tool_call_failed`; a 429 asking for 10 s or less is waited out within the call's limit. A server that could not be
 * used once the start was recorded ends the call `server_failure` and fails with `tool_server_failed`, carrying the
 * server's `Retry-After`. An interrupted call leaves its start without an answer.
 */
export const callTool = (
  recorder: RunRecorder,
  call: RecordedCall
): Effect.Effect<CallOutcome, Rejection, ToolServers> =>
  Effect.gen(function* () {
    const tools = yield* ToolServers
    const argumentsText = tools.scrub(JSON.stringify(call.arguments))
    if (call.keepContent) yield* recorder.keep([argumentsText])
    const started: ToolCallStarted = {
      number: call.number,
      call_id: call.callId,
      server: call.server,
      tool: call.tool,
      arguments_bytes: utf8Bytes(argumentsText),
      ...(call.keepContent ? { arguments_sha256: sha256Of(argumentsText) } : {}),
      content_kept: call.keepContent,
      ...(call.readOnly ? { read_only: true as const } : {})
    }
    yield* recorder.record([{ type: "tool_call_started", data: started }])
    const calledAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    const sentAt = yield* Clock.currentTimeMillis
    const result = yield* Effect.either(
      callWaitingOutRateLimit(tools, {
        server: call.server,
        tool: call.tool,
        arguments: call.arguments,
        ...(call.runId === undefined ? {} : { runId: call.runId }),
        ...(call.timeoutMs === undefined ? {} : { timeoutMs: call.timeoutMs })
      })
    )
    if (result._tag === "Right") {
      const answer = result.right
      const resultText = keptAnswer(answer)
      if (call.keepContent) yield* recorder.keep([resultText])
      const answered: ToolCallAnswered = {
        number: call.number,
        is_error: answer.isError,
        result_bytes: utf8Bytes(resultText),
        ...(call.keepContent ? { result_sha256: sha256Of(resultText) } : {}),
        content_kept: call.keepContent,
        duration_ms: answer.durationMs,
        jsonrpc_id: answer.jsonrpcId,
        ...(answer.serverRequestId === undefined ? {} : { server_request_id: answer.serverRequestId })
      }
      yield* recorder.record([{ type: "tool_call_answered", data: answered }])
      return { _tag: "Answered", answer, resultBytes: answered.result_bytes, calledAt } as const
    }
    const failure = result.left
    if (failure._tag === "ToolCallFailed") {
      const failed: ToolCallFailedData = {
        number: call.number,
        because: failure.because,
        detail: failure.detail,
        duration_ms: failure.durationMs,
        jsonrpc_id: failure.jsonrpcId,
        ...(failure.serverRequestId === undefined ? {} : { server_request_id: failure.serverRequestId })
      }
      yield* recorder.record([{ type: "tool_call_failed", data: failed }])
      return { _tag: "Failed", failure, calledAt } as const
    }
    const refusal = toolServerFailed(failure)
    const failed: ToolCallFailedData = {
      number: call.number,
      because: "server_failure",
      detail: refusal.detail,
      duration_ms: (yield* Clock.currentTimeMillis) - sentAt,
      jsonrpc_id: null
    }
    yield* recorder.record([{ type: "tool_call_failed", data: failed }])
    return yield* Effect.fail(refusal)
  })
