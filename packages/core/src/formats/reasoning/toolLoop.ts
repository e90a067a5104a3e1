import { Clock, Effect, Either } from "effect"
import type { Rejection } from "../../domain/Rejection.js"
import { utf8Bytes } from "../../domain/utf8Bytes.js"
import type { ModelMessage, ModelTool, ModelToolCall } from "../../ports/ModelProvider.js"
import type {
  ListedTool,
  ToolAnswer,
  ToolCallFailed,
  ToolServerFailed,
  ToolServers,
  ToolServerUnknown
} from "../../ports/ToolServers.js"
import { answerText, keptAnswer } from "../../tools/answerDocument.js"
import { sha256Of } from "../../tools/keepTexts.js"
import type { ToolServerEntry } from "../../tools/ToolServerEntry.js"
import { toolServerLimits } from "../../tools/ToolServerEntry.js"
import { callWaitingOutRateLimit } from "../../tools/waitOutRateLimit.js"
import type { FormatRun } from "../DefinitionFormat.js"
import { shownToolCalls } from "./modelCallFacts.js"
import { recordedRun } from "./recordedRun.js"
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

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A call the loop makes: its tool, its arguments (kept scrubbed under their digest), its number. */
interface Admitted {
  readonly target: OfferedTool
  readonly args: Record<string, unknown>
  readonly argumentsText: string
  readonly argumentsSha: string
  readonly number: number
  readonly kept: boolean
}

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
 * of an answer is its text; a failure reaches it as a recoverable error. Five server failures stop the run. A run
 * performed again starts from the calls it recorded. A call in flight when the run is cancelled ends `interrupted`.
 */
export const toolLoop = (run: FormatRun, port: ToolServers["Type"], offered: ReadonlyArray<OfferedTool>): Toolbox => {
  const record = run.record ?? (() => Effect.void)
  const keep = run.keep ?? (() => Effect.void)
  const byName = new Map(offered.map((tool) => [tool.definition.name, tool]))
  const seen = new Map<string, Array<string>>()
  const called: Array<{ readonly name: string; readonly reads: boolean }> = []
  const unrecorded = new Set<string>()
  let failures = 0
  // A run performed again counts what it recorded against the loop's bounds (decision F3).
  for (const made of recordedRun(run.resumed?.facts ?? []).toolCalls) {
    called.push({ name: `${made.server}/${made.tool}`, reads: made.readOnly })
    if (!made.contentKept) unrecorded.add(made.callId)
    const failed = made.ending?._tag === "Failed" ? made.ending.because : undefined
    if (failed !== undefined && failed !== "arguments_refused" && failed !== "interrupted") failures++
    const target = offered.find(({ entry, tool }) => entry.name === made.server && tool.name === made.tool)
    if (target === undefined || made.argumentsSha256 === undefined) continue
    const key = `${target.definition.name} ${made.argumentsSha256}`
    seen.set(key, [...(seen.get(key) ?? []), made.callId])
  }

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
      const args = call.arguments
      if (!isMapping(args)) return refused(call, "a tool's arguments are a JSON object.")
      const argumentsJson = JSON.stringify(args)
      if (utf8Bytes(argumentsJson) > loopBounds.argumentBytes)
        return refused(call, `its arguments hold more than ${loopBounds.argumentBytes / 1024} KiB as JSON.`)
      const argumentsText = port.scrub(argumentsJson)
      const argumentsSha = sha256Of(argumentsText)
      const key = `${call.name} ${argumentsSha}`
      const earlier = seen.get(key) ?? []
      if (earlier.length >= loopBounds.sameCalls)
        return refused(
          call,
          `${call.name} was already called twice with these arguments; its answer is above (call ${earlier[earlier.length - 1]}).`
        )
      seen.set(key, [...earlier, call.id])
      called.push({ name: `${target.entry.name}/${target.tool.name}`, reads: target.tool.mark === "reads" })
      const number = called.length
      const kept = target.entry.recordContent !== false
      if (!kept) unrecorded.add(call.id)
      if (kept) yield* keep([argumentsText])
      return yield* make(call, { target, args, argumentsText, argumentsSha, number, kept })
    })

  /**
   * Makes an admitted call: `tool_call_started`, the call, then its ending; only the wait for the server may be
   * interrupted (a cancel), which ends the call `interrupted`.
   */
  const make = (call: ModelToolCall, admitted: Admitted): Effect.Effect<ModelMessage, Rejection> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function* () {
        const { target, number, kept } = admitted
        yield* record([
          {
            type: "tool_call_started",
            data: {
              number,
              call_id: call.id,
              server: target.entry.name,
              tool: target.tool.name,
              arguments_bytes: utf8Bytes(admitted.argumentsText),
              ...(kept ? { arguments_sha256: admitted.argumentsSha } : {}),
              content_kept: kept,
              ...(target.tool.mark === "reads" ? { read_only: true } : {})
            }
          }
        ])
        const began = yield* Clock.currentTimeMillis
        const outcome = yield* restore(Effect.either(send(target, admitted.args))).pipe(
          Effect.onInterrupt(() => interrupted(number, began))
        )
        const took = (yield* Clock.currentTimeMillis) - began
        if (Either.isRight(outcome)) return yield* answered(call, number, kept, outcome.right)
        return yield* failed(call, number, outcome.left, took)
      })
    )

  const failed = (
    call: ModelToolCall,
    number: number,
    failure: ToolServerFailed | ToolCallFailed | ToolServerUnknown,
    took: number
  ) =>
    Effect.gen(function* () {
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

  /** A call in flight when the run was cancelled: ended `interrupted`, so none is left started without an end. */
  const interrupted = (number: number, began: number) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.ignore(
        record([
          {
            type: "tool_call_failed",
            data: {
              number,
              because: "interrupted",
              detail: "the run was cancelled while the call was in flight; whether it had an effect is not known",
              duration_ms: now - began,
              jsonrpc_id: null
            }
          }
        ])
      )
    )

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
            result_bytes: utf8Bytes(resultText),
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
      onlyRead: called.every((made) => made.reads),
      names: [...new Set(called.map((made) => made.name))]
    }),
    unrecorded: () => unrecorded,
    shownCalls: (calls) => shownToolCalls(calls, port.scrub, (name) => byName.get(name)?.entry.recordContent === false)
  }
}
