import { Effect, Option } from "effect"
import { jsonValueOrText } from "../../domain/jsonValueOrText.js"
import type { ModelAnswer, ModelMessage, ModelToolCall, ModelUsage } from "../../ports/ModelProvider.js"
import type { ToolAnswer } from "../../ports/ToolServers.js"
import { answerText } from "../../tools/answerDocument.js"
import type { FormatFact } from "../DefinitionFormat.js"
import { addUsage, type ModelStep, noUsage } from "./modelCallFacts.js"
import type { RecordedRun, RecordedToolCall } from "./recordedRun.js"

/** Where a resumed run goes on from. */
export type GoOn =
  /** Ask the model, the conversation as it stands. */
  | { readonly _tag: "Ask" }
  /** The model's last recorded answer asked for no tool (or came in the final step): it is checked as the answer. */
  | { readonly _tag: "Answer"; readonly answer: ModelAnswer; readonly step: ModelStep }
  /** The calls of the model's last answer that are still to be carried out. */
  | { readonly _tag: "Call"; readonly calls: ReadonlyArray<ModelToolCall> }
  /** A call to a tool that may act was left in flight: whether it had an effect is not known. */
  | { readonly _tag: "EffectUnknown"; readonly call: RecordedToolCall }
  /** A text an answer was recorded with is not in the content store: the run cannot go on from it. */
  | { readonly _tag: "Unreadable"; readonly number: number }

/** A resumed run's conversation and spending as recorded, the facts that close what was left open, and what next. */
export interface ResumedConversation {
  /** The messages after the prompt's. */
  readonly messages: ReadonlyArray<ModelMessage>
  /** The number of the last model call recorded. */
  readonly number: number
  readonly usage: ModelUsage
  readonly cost: number | undefined
  readonly answered: boolean
  /** `model_call_failed` / `tool_call_failed` because `interrupted`, for the calls left without an end. */
  readonly closing: ReadonlyArray<FormatFact>
  readonly goOn: GoOn
}

/** What the model is told of a call whose answer was not kept (its server's `record_content` is off). */
const notKept = "[The answer of this call was not kept, so it cannot be shown again; call the tool again if needed.]"

/** A tool call as `model_call_answered` keeps it: its arguments, or their size alone when they were not kept. */
interface KeptToolCall {
  readonly call_id: string
  readonly tool: string
  readonly arguments?: unknown
}

const parsed = (text: Option.Option<string>): unknown => {
  if (Option.isNone(text)) return undefined
  try {
    return JSON.parse(text.value)
  } catch {
    return undefined
  }
}

const interruptedTool = (call: RecordedToolCall): FormatFact => ({
  type: "tool_call_failed",
  data: {
    number: call.number,
    because: "interrupted",
    detail: "the run stopped while the call was in flight; whether it had an effect is not known",
    duration_ms: 0,
    jsonrpc_id: null
  }
})

/**
 * The conversation of a run performed again, from what it recorded (decision F3, ADR 0330): each answer read back
 * from the content store (its response and the tool calls it asked for, with their arguments where kept; ADR
 * 0345), and what the model was told of each call (the answer as kept, a failure's words, a refusal). A model call
 * left without an answer is closed `interrupted` and asked again; a tool call left in flight is closed
 * `interrupted` and called again when its tool is marked `reads`, else the run's effect is unknown. The calls of
 * the last answer not yet made are made; a last answer without tool calls is checked as the run's answer. An answer
 * whose texts the store does not hold leaves the run `Unreadable`.
 */
export const resumeConversation = (
  recorded: RecordedRun,
  recall: (sha256: string) => Effect.Effect<Option.Option<string>>
): Effect.Effect<ResumedConversation> =>
  Effect.gen(function* () {
    const messages: Array<ModelMessage> = []
    const closing: Array<FormatFact> = recorded.toolCalls
      .filter((call) => call.ending === undefined)
      .map(interruptedTool)
    const answered = recorded.modelCalls.filter((call) => call.answered !== undefined)
    const last = answered.at(-1)
    const readBack = (sha256: string) => Effect.map(recall(sha256), Option.map(jsonValueOrText))
    let goOn: GoOn = { _tag: "Ask" }
    let lastAnswer: ModelAnswer | undefined
    for (const call of answered) {
      const { answer, responseSha256, toolCallsSha256, toolCallsCount } = call.answered!
      const response = yield* readBack(responseSha256)
      const kept = toolCallsCount === 0 ? Option.some([]) : yield* readBack(toolCallsSha256)
      if (Option.isNone(response) || Option.isNone(kept) || !Array.isArray(kept.value)) {
        goOn = { _tag: "Unreadable", number: call.number }
        break
      }
      const text = typeof response.value === "string" ? response.value : JSON.stringify(response.value)
      const toolCalls: Array<ModelToolCall> = (kept.value as ReadonlyArray<KeptToolCall>).map((asked) => ({
        id: asked.call_id,
        name: asked.tool,
        arguments: asked.arguments ?? {}
      }))
      lastAnswer = { ...answer, text, toolCalls }
      if (toolCalls.length === 0) continue
      const isLast = call === last
      messages.push({ role: "assistant", text, toolCalls })
      if (isLast && call.step === "final") break
      const remaining: Array<ModelToolCall> = []
      for (const [index, asked] of toolCalls.entries()) {
        const made = recorded.toolCalls.find((candidate) => candidate.callId === asked.id)
        if (made === undefined) {
          const laterMade = toolCalls
            .slice(index + 1)
            .some((next) => recorded.toolCalls.some((candidate) => candidate.callId === next.id))
          if (isLast && !laterMade) remaining.push(asked)
          else messages.push({ role: "tool", callId: asked.id, text: "This call was not made.", isError: true })
        } else if (made.ending === undefined) {
          if (!made.readOnly) goOn = { _tag: "EffectUnknown", call: made }
          else remaining.push(asked)
        } else if (made.ending._tag === "Failed")
          messages.push({
            role: "tool",
            callId: asked.id,
            text: `The call failed (${made.ending.because}): ${made.ending.detail}`,
            isError: true
          })
        else {
          const result = parsed(
            made.ending.resultSha256 === undefined ? Option.none() : yield* recall(made.ending.resultSha256)
          ) as ToolAnswer | undefined
          const shown = result === undefined || !Array.isArray(result.content) ? notKept : answerText(result)
          messages.push({ role: "tool", callId: asked.id, text: shown, isError: made.ending.isError })
        }
      }
      if (isLast && goOn._tag === "Ask" && remaining.length > 0) goOn = { _tag: "Call", calls: remaining }
    }
    for (const call of recorded.modelCalls)
      if (!call.ended)
        closing.push({
          type: "model_call_failed",
          data: {
            number: call.number,
            attempt: call.attempt,
            because: "interrupted",
            attempts: call.attempt,
            duration_ms: 0
          }
        })
    if (
      goOn._tag === "Ask" &&
      last !== undefined &&
      lastAnswer !== undefined &&
      (lastAnswer.toolCalls.length === 0 || last.step === "final")
    )
      goOn = { _tag: "Answer", answer: lastAnswer, step: last.step }
    const spent = answered.map((call) => call.answered!.answer)
    const costs = spent.filter((answer) => answer.costUsd !== undefined)
    return {
      messages,
      number: recorded.modelCalls.reduce((highest, call) => Math.max(highest, call.number), 0),
      usage: spent.reduce((total, answer) => addUsage(total, answer.usage), noUsage),
      cost: costs.length === 0 ? undefined : costs.reduce((total, answer) => total + answer.costUsd!, 0),
      answered: spent.length > 0,
      closing,
      goOn
    }
  })
