import { Clock, Effect, Schema } from "effect"
import type { OperationContext } from "../../catalog/Operation.js"
import type { Rejection } from "../../domain/Rejection.js"
import { jsonBytes, utf8Bytes } from "../../domain/utf8Bytes.js"
import { Ids } from "../../ports/Ids.js"
import { runRecorder } from "../../runs/runRecorder.js"
import { answerDocument, answerText, cutWithNote, keptAnswer, shownBound } from "../answerDocument.js"
import { callTool } from "../callTool.js"
import { argumentsTooLarge } from "../checkArguments.js"
import { offeredTool } from "../offeredTool.js"
import { keepsContent } from "../servingServers.js"
import { toolCallStream } from "../toolCallFacts.js"
import { toolNotReadOnly } from "../toolRefusals.js"
import { ToolArguments, ToolPath } from "./toolFields.js"
import { argumentsRefused } from "./validate.js"

/** What query_connection and execute_connection take: the tool in the path, its arguments (`{}` when left out). */
export const CallInput = Schema.Struct({ ...ToolPath, arguments: Schema.optional(ToolArguments) })
export type CallInput = typeof CallInput.Type

/** How a call made by hand ended. */
export const CallOutcomeName = Schema.Literal("result", "tool_error", "server_failure", "timed_out", "too_large")

/** What a call made by hand answers: what a reasoning run's model would see, and the document a read points into. */
export const ToolCallResult = Schema.Struct({
  call_id: Schema.String,
  server: Schema.String,
  tool: Schema.String,
  outcome: CallOutcomeName,
  text: Schema.String,
  answer: Schema.optional(Schema.Unknown),
  result_bytes: Schema.NullOr(Schema.Number),
  duration_ms: Schema.Number,
  server_request_id: Schema.optional(Schema.String),
  called_at: Schema.String
}).annotations({ identifier: "ToolCallResult" })
export type ToolCallResult = typeof ToolCallResult.Type

/**
 * Calls one tool by hand as a reasoning run would (HTTP "Calling a tool by hand"): refused before anything is sent
 * when the tool is not offered, its server cannot be used, or (for `readsOnly`) its mark is not `reads`; otherwise
 * recorded on a stream of its own as `tool_call_started` then `tool_call_answered` or `tool_call_failed`, and
 * answered whatever the tool returned.
 */
export const callByHand = (input: CallInput, { org, playbook, caller }: OperationContext, readsOnly: boolean) =>
  Effect.gen(function* () {
    const args = input.arguments ?? {}
    if (argumentsTooLarge(args)) return yield* Effect.fail(argumentsRefused)
    const { entry, tool } = yield* offeredTool(org, playbook!.id, input.server, input.tool)
    if (readsOnly && tool.mark !== "reads")
      return yield* Effect.fail(
        toolNotReadOnly(input.server, input.tool, tool.mark, "execute_connection calls it, whatever it may change")
      )
    const callId = yield* Effect.flatMap(Ids, (ids) => Effect.flatMap(Clock.currentTimeMillis, ids.uuidv7))
    const recorder = yield* runRecorder({
      org,
      playbook: playbook!.id,
      stream: toolCallStream(org, playbook!.id, callId),
      metadata: { correlation_id: callId },
      by: caller.id
    })
    const outcome = yield* callTool(recorder, {
      server: input.server,
      tool: input.tool,
      arguments: args,
      callId,
      number: 1,
      readOnly: tool.mark === "reads",
      keepContent: keepsContent(entry)
    })
    const base = { call_id: callId, server: input.server, tool: input.tool, called_at: outcome.calledAt }
    if (outcome._tag === "Failed") {
      const { failure } = outcome
      return {
        ...base,
        outcome:
          failure.because === "arguments_refused"
            ? ("tool_error" as const)
            : failure.because === "timed_out" || failure.because === "too_large"
              ? failure.because
              : ("server_failure" as const),
        text: cutWithNote(failure.detail),
        result_bytes: null,
        duration_ms: failure.durationMs,
        ...(failure.serverRequestId === undefined ? {} : { server_request_id: failure.serverRequestId })
      }
    }
    const { answer } = outcome
    const document = answerDocument(answer)
    const shown = document.found && jsonBytes(document.value) <= shownBound ? { answer: document.value } : {}
    return {
      ...base,
      outcome: answer.isError ? ("tool_error" as const) : ("result" as const),
      text: answerText(answer),
      ...shown,
      result_bytes: utf8Bytes(keptAnswer(answer)),
      duration_ms: answer.durationMs,
      ...(answer.serverRequestId === undefined ? {} : { server_request_id: answer.serverRequestId })
    }
  }) satisfies Effect.Effect<ToolCallResult, Rejection, unknown>

const summarize = (output: ToolCallResult) =>
  `Called ${output.server}/${output.tool}: ${output.outcome === "result" ? "it returned a result" : `it ended ${output.outcome}`} in ${output.duration_ms} ms.`

/** query_connection: calls one tool marked reads by hand. */
export const queryConnection = {
  name: "query_connection",
  title: "Call a tool that only reads",
  description:
    "Call one tool marked reads of a tool server the playbook may use, with the arguments given, as a reasoning run would call it, and see what it returns: use it to see what a tool answers before a function names it, or to find an id a function needs. A tool marked acts or unmarked is refused as tool_not_read_only; execute_connection calls it. The call is recorded in the playbook's history.",
  summarize
} as const

/** execute_connection: calls one tool by hand, whatever its mark. */
export const executeConnection = {
  name: "execute_connection",
  title: "Call a tool",
  description:
    "Call one tool of a tool server the playbook may use, with the arguments given, whatever its mark: use it to do what the person asked of a tool that may change something, such as sending, creating or deleting, without first creating a function. The call is live and recorded in the playbook's history; check it first with dry_run.",
  summarize
} as const
