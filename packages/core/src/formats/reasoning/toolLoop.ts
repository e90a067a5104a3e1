import { Clock, Effect, Either } from "effect"
import type { Rejection } from "../../domain/Rejection.js"
import type { ModelMessage, ModelTool, ModelToolCall } from "../../ports/ModelProvider.js"
import type { ListedTool, ToolAnswer, ToolServers } from "../../ports/ToolServers.js"
import { answerText, keptAnswer } from "../../tools/answerDocument.js"
import { sha256Of } from "../../tools/keepTexts.js"
import type { ToolServerEntry } from "../../tools/ToolServerEntry.js"
import { toolServerLimits } from "../../tools/ToolServerEntry.js"
import { callWaitingOutRateLimit } from "../../tools/waitOutRateLimit.js"
import type { FormatRun } from "../DefinitionFormat.js"
import type { Toolbox, ToolsStop } from "./Toolbox.js"

/** A tool offered to the model: its server's entry, the tool as listed, and its model-facing definition. */
export interface OfferedTool {
  readonly entry: ToolServerEntry
  readonly tool: ListedTool
  readonly definition: ModelTool
}

/** The loop's bounds (function-formats.md §2.6). */
export const loopBounds = {
  calls: 25,
  argumentBytes: 16_384,
  sameCalls: 2,
  serverFailures: 5
} as const

const bytesOf = (text: string): number => new TextEncoder().encode(text).length

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A call refused before it is sent: neither sent nor recorded; the model is told why. */
const refused = (call: ModelToolCall, why: string): ModelMessage => ({
  role: "tool",
  callId: call.id,
  text: `This call was not made: ${why}`,
  isError: true
})

/**
 * The tool loop of a reasoning run (function-formats.md §2.6, §1.8): each call the model asks for is refused when
 * it names no offered tool, passes the 25 calls of a run, holds more than 16 KiB of arguments or repeats a third
 * time; otherwise its arguments are kept, `tool_call_started` recorded, the call sent (30 s, a 429 waited out when
 * the server asks for 10 s or less), and `tool_call_answered` or `tool_call_failed` recorded. What the model sees
 * of an answer is its text; a failure reaches it as a recoverable error. Five server failures stop the run.
 */
export const toolLoop = (run: FormatRun, port: ToolServers["Type"], offered: ReadonlyArray<OfferedTool>): Toolbox => {
  const record = run.record ?? (() => Effect.void)
  const keep = run.keep ?? (() => Effect.void)
  const byName = new Map(offered.map((tool) => [tool.definition.name, tool]))
  const seen = new Map<string, Array<string>>()
  const called: Array<OfferedTool> = []
  const unrecorded = new Set<string>()
  let failures = 0

  const send = (target: OfferedTool, args: Record<string, unknown>) =>
    callWaitingOutRateLimit(port, {
      server: target.entry.name,
      tool: target.tool.name,
      arguments: args,
      runId: run.runId,
      timeoutMs: toolServerLimits.callMs
    })

  const callOne = (call: ModelToolCall): Effect.Effect<ModelMessage, Rejection> =>
    Effect.gen(function* () {
      const target = byName.get(call.name)
      if (target === undefined) return refused(call, `no tool is named ${call.name}; use one of the tools offered.`)
      if (called.length >= loopBounds.calls)
        return refused(call, `the run has made its ${loopBounds.calls} tool calls; answer with what you have.`)
      if (!isMapping(call.arguments)) return refused(call, "a tool's arguments are a JSON object.")
      const argumentsJson = JSON.stringify(call.arguments)
      if (bytesOf(argumentsJson) > loopBounds.argumentBytes)
        return refused(call, `its arguments hold more than ${loopBounds.argumentBytes / 1024} KiB as JSON.`)
      const key = `${call.name} ${argumentsJson}`
      const earlier = seen.get(key) ?? []
      if (earlier.length >= loopBounds.sameCalls)
        return refused(
          call,
          `${call.name} was already called twice with these arguments; its answer is above (call ${earlier[earlier.length - 1]}).`
        )
      seen.set(key, [...earlier, call.id])
      called.push(target)
      const number = called.length
      const kept = target.entry.recordContent !== false
      if (!kept) unrecorded.add(call.id)
      const argumentsText = port.scrub(argumentsJson)
      const argumentsSha = sha256Of(argumentsText)
      if (kept) yield* keep([argumentsText])
      yield* record([
        {
          type: "tool_call_started",
          data: {
            number,
            call_id: call.id,
            server: target.entry.name,
            tool: target.tool.name,
            arguments_bytes: bytesOf(argumentsText),
            ...(kept ? { arguments_sha256: argumentsSha } : {}),
            content_kept: kept,
            ...(target.tool.mark === "reads" ? { read_only: true } : {})
          }
        }
      ])
      const began = yield* Clock.currentTimeMillis
      const outcome = yield* Effect.either(send(target, call.arguments))
      const took = (yield* Clock.currentTimeMillis) - began
      if (Either.isRight(outcome)) return yield* answered(call, number, kept, outcome.right)
      const failure = outcome.left
      const because = failure._tag === "ToolCallFailed" ? failure.because : "server_failure"
      const detail =
        failure._tag === "ToolServerUnknown" ? `the tool server ${failure.server} is not configured` : failure.detail
      if (because !== "arguments_refused") failures++
      yield* record([
        {
          type: "tool_call_failed",
          data: {
            number,
            because,
            detail,
            duration_ms: failure._tag === "ToolCallFailed" ? failure.durationMs : took,
            jsonrpc_id: failure._tag === "ToolCallFailed" ? failure.jsonrpcId : null,
            ...(failure._tag === "ToolCallFailed" && failure.serverRequestId !== undefined
              ? { server_request_id: failure.serverRequestId }
              : {})
          }
        }
      ])
      return {
        role: "tool",
        callId: call.id,
        text: `The call failed (${because}): ${detail}`,
        isError: true
      } satisfies ModelMessage
    })

  const answered = (call: ModelToolCall, number: number, kept: boolean, answer: ToolAnswer) =>
    Effect.gen(function* () {
      const resultText = port.scrub(keptAnswer(answer))
      if (kept) yield* keep([resultText])
      const shown = answerText(answer)
      yield* record([
        {
          type: "tool_call_answered",
          data: {
            number,
            is_error: answer.isError,
            result_bytes: bytesOf(resultText),
            ...(kept ? { result_sha256: sha256Of(resultText) } : {}),
            content_kept: kept,
            duration_ms: answer.durationMs,
            jsonrpc_id: answer.jsonrpcId,
            ...(answer.serverRequestId === undefined ? {} : { server_request_id: answer.serverRequestId })
          }
        }
      ])
      return { role: "tool", callId: call.id, text: shown, isError: answer.isError } satisfies ModelMessage
    })

  return {
    offered: offered.map((tool) => tool.definition),
    call: (calls) =>
      Effect.gen(function* () {
        const results: Array<ModelMessage> = []
        for (const call of calls) {
          results.push(yield* callOne(call))
          if (failures >= loopBounds.serverFailures) {
            const stop: ToolsStop = {
              because: "server_failed",
              detail: `The run's tool servers failed ${failures} times, so it stopped.`
            }
            return { results, stop }
          }
        }
        return { results }
      }),
    spent: () => called.length >= loopBounds.calls,
    called: () => ({
      count: called.length,
      onlyRead: called.every((target) => target.tool.mark === "reads"),
      names: [...new Set(called.map((target) => `${target.entry.name}/${target.tool.name}`))]
    }),
    unrecorded: () => unrecorded
  }
}
