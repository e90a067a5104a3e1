import type { FinishReason, ModelAnswer, ModelUsage } from "../../ports/ModelProvider.js"
import type { FormatFact } from "../DefinitionFormat.js"
import type { ModelStep } from "./modelCallFacts.js"
import type { ToolsCalled } from "./Toolbox.js"

/** How a recorded tool call ended; absent while it was in flight. */
export type ToolCallEnding =
  | { readonly _tag: "Answered"; readonly isError: boolean; readonly resultSha256?: string }
  | { readonly _tag: "Failed"; readonly because: string; readonly detail: string }

/** A tool call as the run recorded it (`tool_call_started`, then its ending). */
export interface RecordedToolCall {
  readonly number: number
  readonly callId: string
  readonly server: string
  readonly tool: string
  readonly readOnly: boolean
  readonly contentKept: boolean
  readonly argumentsSha256?: string
  ending?: ToolCallEnding
}

/**
 * A model call's answer as its fact records it: all but its response and tool calls, which the content store keeps
 * under the digests it names (ADR 0345).
 */
export interface RecordedAnswer {
  readonly answer: Omit<ModelAnswer, "text" | "toolCalls">
  readonly responseSha256: string
  readonly toolCallsSha256: string
  /** How many tool calls it asked for. */
  readonly toolCallsCount: number
}

/** A model call as the run recorded it: its last attempt, and its answer. */
export interface RecordedModelCall {
  readonly number: number
  attempt: number
  readonly step: ModelStep
  readonly repair: boolean
  /** Whether its last attempt ended (answered or failed). */
  ended: boolean
  answered?: RecordedAnswer
}

/** What a run recorded since its start: its model calls and tool calls, in order. */
export interface RecordedRun {
  readonly modelCalls: ReadonlyArray<RecordedModelCall>
  readonly toolCalls: ReadonlyArray<RecordedToolCall>
}

interface ShownUsage {
  readonly input: { uncached: number | null; cache_read: number | null; cache_write: number | null }
  readonly output: { text: number | null; reasoning: number | null }
  readonly total: number | null
}

const usageOf = (shown: ShownUsage): ModelUsage => ({
  input: { uncached: shown.input.uncached, cacheRead: shown.input.cache_read, cacheWrite: shown.input.cache_write },
  output: { text: shown.output.text, reasoning: shown.output.reasoning },
  total: shown.total
})

interface AnsweredData {
  readonly number: number
  readonly attempt: number
  readonly model: { readonly answered: string }
  readonly finish_reason: FinishReason
  readonly raw_finish_reason: string | null
  readonly usage: ShownUsage
  readonly response_id: string | null
  readonly response_sha256: string
  readonly tool_calls_count: number
  readonly tool_calls_sha256: string
  readonly cost_usd?: number
}

/** The answer a `model_call_answered` records, its response and tool calls named by their digests. */
const answerOf = (data: AnsweredData): RecordedAnswer => ({
  answer: {
    finishReason: data.finish_reason,
    rawFinishReason: data.raw_finish_reason,
    usage: usageOf(data.usage),
    responseId: data.response_id,
    model: data.model.answered,
    ...(data.cost_usd === undefined ? {} : { costUsd: data.cost_usd })
  },
  responseSha256: data.response_sha256,
  toolCallsSha256: data.tool_calls_sha256,
  toolCallsCount: data.tool_calls_count
})

/**
 * Folds the facts a reasoning run recorded since its start into its model calls and tool calls (decision F3): each
 * model call with its last attempt and answer, each tool call with its ending. Facts of other types are passed by.
 */
export const recordedRun = (facts: ReadonlyArray<FormatFact>): RecordedRun => {
  const modelCalls: Array<RecordedModelCall> = []
  const toolCalls: Array<RecordedToolCall> = []
  const modelCall = (number: number) => modelCalls.find((call) => call.number === number)
  const toolCall = (number: number) => toolCalls.find((call) => call.number === number)
  for (const fact of facts) {
    const data = fact.data as Record<string, unknown>
    switch (fact.type) {
      case "model_call_started": {
        const known = modelCall(data.number as number)
        if (known !== undefined) {
          known.attempt = data.attempt as number
          known.ended = false
        } else
          modelCalls.push({
            number: data.number as number,
            attempt: data.attempt as number,
            step: data.step as ModelStep,
            repair: data.repair === true,
            ended: false
          })
        break
      }
      case "model_call_answered": {
        const known = modelCall(data.number as number)
        if (known === undefined) break
        known.ended = true
        known.answered = answerOf(fact.data as AnsweredData)
        break
      }
      case "model_call_failed": {
        const known = modelCall(data.number as number)
        if (known !== undefined) known.ended = true
        break
      }
      case "tool_call_started":
        toolCalls.push({
          number: data.number as number,
          callId: data.call_id as string,
          server: data.server as string,
          tool: data.tool as string,
          readOnly: data.read_only === true,
          contentKept: data.content_kept === true,
          ...(typeof data.arguments_sha256 === "string" ? { argumentsSha256: data.arguments_sha256 } : {})
        })
        break
      case "tool_call_answered": {
        const known = toolCall(data.number as number)
        if (known !== undefined)
          known.ending = {
            _tag: "Answered",
            isError: data.is_error === true,
            ...(typeof data.result_sha256 === "string" ? { resultSha256: data.result_sha256 } : {})
          }
        break
      }
      case "tool_call_failed": {
        const known = toolCall(data.number as number)
        if (known !== undefined)
          known.ending = { _tag: "Failed", because: data.because as string, detail: data.detail as string }
        break
      }
    }
  }
  return { modelCalls, toolCalls }
}

/** The tools a run had called by what it recorded, for the ending of a run performed again (§2.9). */
export const toolsCalledIn = (recorded: RecordedRun): ToolsCalled => ({
  count: recorded.toolCalls.length,
  onlyRead: recorded.toolCalls.every((call) => call.readOnly),
  names: [...new Set(recorded.toolCalls.map((call) => `${call.server}/${call.tool}`))]
})
