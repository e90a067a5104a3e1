import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { FormatFact } from "../../src/formats/DefinitionFormat.js"
import { recordedRun } from "../../src/formats/reasoning/recordedRun.js"
import { resumeConversation } from "../../src/formats/reasoning/resumeConversation.js"
import { keptJson } from "../../src/tools/keepTexts.js"

const usage = {
  input: { uncached: 10, cache_read: null, cache_write: null },
  output: { text: 5, reasoning: null },
  total: 15
}

/** The texts the content store holds, by digest: what a run kept before the facts that name them. */
const kept = new Map([["digest-a", JSON.stringify({ content: [{ type: "text", text: "41 on hand" }] })]])
const keep = (value: unknown) => {
  const text = keptJson(value)
  kept.set(text.sha256, text.text)
  return text.sha256
}

const answered = (
  number: number,
  calls: ReadonlyArray<{ call_id: string; tool: string; arguments?: unknown; arguments_bytes?: number }>,
  response = ""
) => ({
  type: "model_call_answered",
  data: {
    number,
    attempt: 1,
    model: { answered: "m" },
    finish_reason: calls.length === 0 ? "stop" : "tool_calls",
    raw_finish_reason: null,
    usage,
    response_id: null,
    response_sha256: keep(response),
    tool_calls_count: calls.length,
    tool_calls_sha256: keep(calls),
    cost_usd: 0.5
  }
})
const started = (number: number) => ({ type: "model_call_started", data: { number, attempt: 1, step: "with_tools" } })
const toolStarted = (number: number, callId: string, kept: boolean) => ({
  type: "tool_call_started",
  data: { number, call_id: callId, server: "inv", tool: "get", content_kept: kept, read_only: true }
})

const resume = (facts: ReadonlyArray<FormatFact>) =>
  Effect.runPromise(resumeConversation(recordedRun(facts), (sha) => Effect.succeed(Option.fromNullable(kept.get(sha)))))

describe("a reasoning run performed again", () => {
  it("tells the model what it saw of each call: the kept answer, an answer not kept, a call refused", async () => {
    const resumed = await resume([
      started(1),
      answered(1, [
        { call_id: "a", tool: "mcp__inv__get", arguments: { sku: "A-1" } },
        { call_id: "r", tool: "mcp__inv__nothing", arguments: {} },
        { call_id: "u", tool: "mcp__inv__get", arguments_bytes: 13 }
      ]),
      toolStarted(1, "a", true),
      {
        type: "tool_call_answered",
        data: { number: 1, is_error: false, result_sha256: "digest-a", content_kept: true }
      },
      toolStarted(2, "u", false),
      { type: "tool_call_answered", data: { number: 2, is_error: false, content_kept: false } },
      started(2)
    ])
    expect(resumed.messages[0]).toEqual({
      role: "assistant",
      text: "",
      toolCalls: [
        { id: "a", name: "mcp__inv__get", arguments: { sku: "A-1" } },
        { id: "r", name: "mcp__inv__nothing", arguments: {} },
        { id: "u", name: "mcp__inv__get", arguments: {} }
      ]
    })
    expect(resumed.messages.slice(1)).toEqual([
      { role: "tool", callId: "a", text: "41 on hand", isError: false },
      { role: "tool", callId: "r", text: "This call was not made.", isError: true },
      { role: "tool", callId: "u", text: expect.stringContaining("was not kept"), isError: false }
    ])
    expect(resumed.closing).toEqual([
      {
        type: "model_call_failed",
        data: { number: 2, attempt: 1, because: "interrupted", attempts: 1, duration_ms: 0 }
      }
    ])
    expect([resumed.goOn._tag, resumed.number, resumed.usage.total, resumed.cost]).toEqual(["Ask", 2, 15, 0.5])
  })

  it("checks a last answer without tool calls as the run's answer, read back from the content store", async () => {
    const resumed = await resume([started(1), answered(1, [], "41 on hand.")])
    expect(resumed.goOn).toMatchObject({
      _tag: "Answer",
      step: "with_tools",
      answer: { finishReason: "stop", text: "41 on hand.", toolCalls: [] }
    })
    expect(resumed.closing).toEqual([])
  })

  it("makes the calls of the last answer not made yet with the arguments its answer kept", async () => {
    const resumed = await resume([
      started(1),
      answered(1, [{ call_id: "n", tool: "mcp__inv__get", arguments: { sku: "N-4" } }])
    ])
    expect(resumed.goOn).toEqual({
      _tag: "Call",
      calls: [{ id: "n", name: "mcp__inv__get", arguments: { sku: "N-4" } }]
    })
  })

  it("cannot go on from an answer whose texts the content store does not hold, but still closes what was open", async () => {
    const lost = answered(1, [{ call_id: "a", tool: "mcp__inv__get", arguments: {} }])
    const resumed = await resume([
      started(1),
      { ...lost, data: { ...lost.data, tool_calls_sha256: "0".repeat(64) } },
      toolStarted(1, "a", true)
    ])
    expect(resumed.goOn).toEqual({ _tag: "Unreadable", number: 1 })
    expect(resumed.closing).toMatchObject([{ type: "tool_call_failed", data: { number: 1, because: "interrupted" } }])
  })
})
