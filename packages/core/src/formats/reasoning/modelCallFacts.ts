import { jsonValueOrText } from "../../domain/jsonValueOrText.js"
import { utf8Bytes } from "../../domain/utf8Bytes.js"
import type { ResolvedModel } from "../../models/resolveModel.js"
import type {
  ModelAnswer,
  ModelCallSettings,
  ModelMessage,
  ModelToolCall,
  ModelUsage
} from "../../ports/ModelProvider.js"
import type { KeptJson } from "../../tools/keepTexts.js"

/** Which step of the loop a call is: one that may ask for tools, or the final one without them. */
export type ModelStep = "with_tools" | "final"

/** The settings of a call as facts and records show them, the default `max_output_tokens` filled in. */
export const settingsShown = (settings: ModelCallSettings) => ({
  max_output_tokens: settings.maxOutputTokens,
  ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
  ...(settings.topP === undefined ? {} : { top_p: settings.topP }),
  ...(settings.seed === undefined ? {} : { seed: settings.seed }),
  ...(settings.stopSequences === undefined ? {} : { stop_sequences: settings.stopSequences }),
  ...(settings.reasoning === undefined ? {} : { reasoning: settings.reasoning })
})

/**
 * A conversation as the content store keeps it and its event shows it (ADR 0322, ADR 0345): the system
 * instructions first, then each message, the model's tool calls as `{call_id, tool}`; the result of a call whose
 * server does not keep content is shown as its size.
 */
export const messagesShown = (
  system: string | undefined,
  messages: ReadonlyArray<ModelMessage>,
  unrecorded: ReadonlySet<string>
) => [
  ...(system === undefined ? [] : [{ role: "system", content: system }]),
  ...messages.map((message) => {
    switch (message.role) {
      case "user":
        return { role: "user", content: message.text }
      case "assistant":
        return {
          role: "assistant",
          content: message.text,
          ...(message.toolCalls.length === 0
            ? {}
            : { tool_calls: message.toolCalls.map((call) => ({ call_id: call.id, tool: call.name })) })
        }
      default:
        return unrecorded.has(message.callId)
          ? {
              role: "tool",
              call_id: message.callId,
              content_bytes: utf8Bytes(message.text),
              is_error: message.isError
            }
          : { role: "tool", call_id: message.callId, content: message.text, is_error: message.isError }
    }
  })
]

/** Token counts in snake case, as facts and records show them. */
export const usageShown = (usage: ModelUsage) => ({
  input: { uncached: usage.input.uncached, cache_read: usage.input.cacheRead, cache_write: usage.input.cacheWrite },
  output: { text: usage.output.text, reasoning: usage.output.reasoning },
  total: usage.total
})

const add = (left: number | null, right: number | null): number | null =>
  left === null ? right : right === null ? left : left + right

/** The tokens of several calls together; null where no call reported a count. */
export const addUsage = (left: ModelUsage, right: ModelUsage): ModelUsage => ({
  input: {
    uncached: add(left.input.uncached, right.input.uncached),
    cacheRead: add(left.input.cacheRead, right.input.cacheRead),
    cacheWrite: add(left.input.cacheWrite, right.input.cacheWrite)
  },
  output: {
    text: add(left.output.text, right.output.text),
    reasoning: add(left.output.reasoning, right.output.reasoning)
  },
  total: add(left.total, right.total)
})

/** No tokens recorded yet. */
export const noUsage: ModelUsage = {
  input: { uncached: null, cacheRead: null, cacheWrite: null },
  output: { text: null, reasoning: null },
  total: null
}

/** What one call asks, for its `model_call_started`. */
export interface CallAsked {
  readonly number: number
  readonly step: ModelStep
  readonly model: ResolvedModel
  readonly settings: ModelCallSettings
  readonly system: string | undefined
  readonly messages: ReadonlyArray<ModelMessage>
  readonly toolsOffered: number
  readonly repair: boolean
  /** The calls whose results the conversation shows as their size. */
  readonly unrecorded: ReadonlySet<string>
}

/**
 * `model_call_started`: a request is about to be sent (function-formats.md §2.7, decision F2). Its messages, the
 * conversation with its tool calls as they happened (also for the final step, which sends them retold as text), are
 * kept in the content store: the fact names them by size and digest (ADR 0345).
 */
export const modelCallStarted = (asked: CallAsked, attempt: number, messages: KeptJson) => ({
  type: "model_call_started",
  data: {
    number: asked.number,
    attempt,
    step: asked.step,
    model: { requested: asked.model.requested, resolved: asked.model.resolved },
    settings: settingsShown(asked.settings),
    messages_bytes: messages.bytes,
    messages_sha256: messages.sha256,
    tools_offered: asked.toolsOffered,
    ...(asked.repair ? { repair: true } : {})
  }
})

/** The answer as an event shows it: a JSON answer as its value, else its text. */
export const responseShown = (text: string, json: boolean): unknown => (json ? jsonValueOrText(text) : text)

/**
 * The tool calls an answer asks for as an event shows them: each with its arguments, scrubbed (`scrub`), or only
 * their size when the tool's server keeps no content (`unkept`, by the model-facing tool name).
 */
export const shownToolCalls = (
  calls: ReadonlyArray<ModelToolCall>,
  scrub: (text: string) => string,
  unkept: (tool: string) => boolean
) =>
  calls.map((call) => {
    const text = scrub(JSON.stringify(call.arguments) ?? "null")
    return unkept(call.name)
      ? { call_id: call.id, tool: call.name, arguments_bytes: utf8Bytes(text) }
      : { call_id: call.id, tool: call.name, arguments: jsonValueOrText(text) }
  })

/** What an answer keeps in the content store: its response and the tool calls it asks for, as events show them. */
export interface AnswerKept {
  readonly response: KeptJson
  readonly toolCalls: KeptJson
}

/**
 * `model_call_answered`: the provider answered a request. Its response and the tool calls it asks for (with their
 * arguments) are kept in the content store: the fact names each by size and digest (ADR 0345).
 */
export const modelCallAnswered = (
  asked: CallAsked,
  attempt: number,
  answer: ModelAnswer,
  durationMs: number,
  kept: AnswerKept
) => ({
  type: "model_call_answered",
  data: {
    number: asked.number,
    attempt,
    model: { answered: answer.model },
    finish_reason: answer.finishReason,
    raw_finish_reason: answer.rawFinishReason,
    usage: usageShown(answer.usage),
    response_id: answer.responseId,
    response_bytes: kept.response.bytes,
    response_sha256: kept.response.sha256,
    tool_calls_count: answer.toolCalls.length,
    tool_calls_bytes: kept.toolCalls.bytes,
    tool_calls_sha256: kept.toolCalls.sha256,
    warnings: [],
    attempts: attempt,
    duration_ms: durationMs,
    ...(answer.costUsd === undefined ? {} : { cost_usd: answer.costUsd }),
    ...(asked.repair ? { repair: true } : {})
  }
})

/** `model_call_failed`: a request got no answer, `because` a failure kind of §2.8 or `interrupted`. */
export const modelCallFailed = (
  asked: CallAsked,
  attempt: number,
  because: string,
  durationMs: number,
  more: { readonly status?: number; readonly retryAfterMs?: number } = {}
) => ({
  type: "model_call_failed",
  data: {
    number: asked.number,
    attempt,
    because,
    ...(more.status === undefined ? {} : { status: more.status }),
    ...(more.retryAfterMs === undefined ? {} : { retry_after_ms: more.retryAfterMs }),
    attempts: attempt,
    duration_ms: durationMs
  }
})
