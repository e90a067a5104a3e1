import { Effect, Option } from "effect"
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
 * The conversation of a run performed again, from what it recorded (decision F3, ADR 0330): each answer that asked
 * for tools with the arguments its calls kept, and what the model was told of each call (the answer as kept, a
 * failure's words, a refusal). A model call left without an answer is closed `interrupted` and asked again; a tool
 * call left in flight is closed `interrupted` and called again when its tool is marked `reads`, else the run's
 * effect is unknown. The calls of the last answer not yet made are made; a last answer without tool calls is
 * checked as the run's answer.
 */
export const resumeConversation = (
  recorded: RecordedRun,
  recall: (sha256: string) => Effect.Effect<Option.Option<string>>
): Effect.Effect<ResumedConversation> =>
  Effect.gen(function* () {
    const messages: Array<ModelMessage> = []
    const closing: Array<FormatFact> = []
    const answered = recorded.modelCalls.filter((call) => call.answer !== undefined)
    const last = answered.at(-1)
    const recallAt = (sha: string | undefined) => (sha === undefined ? Effect.succeed(Option.none()) : recall(sha))
    let goOn: GoOn = { _tag: "Ask" }
    for (const call of answered) {
      const answer = call.answer!
      if (answer.toolCalls.length === 0) continue
      const isLast = call === last
      const toolCalls: Array<ModelToolCall> = []
      for (const asked of answer.toolCalls) {
        const made = recorded.toolCalls.find((candidate) => candidate.callId === asked.id)
        const args = parsed(yield* recallAt(made?.argumentsSha256 ?? call.argumentDigests?.get(asked.id)))
        toolCalls.push({ ...asked, arguments: args ?? {} })
      }
      messages.push({ role: "assistant", text: answer.text, toolCalls })
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
          closing.push(interruptedTool(made))
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
          const kept = parsed(yield* recallAt(made.ending.resultSha256)) as ToolAnswer | undefined
          const text = kept === undefined || !Array.isArray(kept.content) ? notKept : answerText(kept)
          messages.push({ role: "tool", callId: asked.id, text, isError: made.ending.isError })
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
    if (goOn._tag === "Ask" && last !== undefined && (last.answer!.toolCalls.length === 0 || last.step === "final"))
      goOn = { _tag: "Answer", answer: last.answer!, step: last.step }
    const spent = answered.map((call) => call.answer!)
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
