import { ModelProvider, type ModelProviderEntry, type ModelRequest } from "@runledger/core"
import { answerTool, HttpModelProvider } from "@runledger/model-providers"
import { Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  anthropicText,
  anthropicToolUse,
  openAiText,
  openAiToolCalls,
  type ScriptedModel,
  startScriptedModel
} from "./scriptedModel.js"

const provide = <A, E>(effect: Effect.Effect<A, E, ModelProvider>) =>
  Effect.runPromise(Effect.either(effect).pipe(Effect.provide(HttpModelProvider.layer)))

const call = (request: ModelRequest) => provide(Effect.flatMap(ModelProvider, (port) => port.call(request)))

const requestTo = (provider: ModelProviderEntry, more: Partial<ModelRequest> = {}): ModelRequest => ({
  provider,
  model: "scripted-1",
  system: "Be brief.",
  messages: [{ role: "user", text: "Say hello." }],
  settings: { maxOutputTokens: 64, temperature: 0.2 },
  output: { format: "text" },
  tools: [],
  timeoutMs: 10_000,
  ...more
})

describe("OpenAI-compatible chat completions over HTTP", () => {
  let model: ScriptedModel
  let gateway: ModelProviderEntry
  beforeAll(async () => {
    model = await startScriptedModel("openai")
    gateway = {
      name: "gateway",
      api: "openai",
      baseUrl: model.baseUrl,
      apiKey: "sk-scripted-key-0001",
      costHeader: "x-cost-usd"
    }
  })
  afterAll(() => model.close())

  it("sends the conversation, settings and key, and reads text, usage and the cost header", async () => {
    model.script({ ...openAiText("Hello."), headers: { "x-cost-usd": "0.0042" } })
    const answer = await call(requestTo(gateway))
    expect(Either.getOrThrow(answer)).toMatchObject({
      text: "Hello.",
      finishReason: "stop",
      rawFinishReason: "stop",
      usage: { input: { uncached: 10, cacheRead: 2 }, output: { text: 5 }, total: 17 },
      responseId: "chatcmpl-1",
      costUsd: 0.0042
    })
    const sent = model.received.at(-1)!
    expect(sent.headers.authorization).toBe("Bearer sk-scripted-key-0001")
    expect(sent.body).toMatchObject({
      model: "scripted-1",
      max_tokens: 64,
      temperature: 0.2,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello." }
      ]
    })
  })

  it("offers tools, reads the calls asked for, and sends their results back", async () => {
    model.script(openAiToolCalls([{ id: "call_1", name: "mcp__crm__find", arguments: { q: "acme" } }]))
    const answer = Either.getOrThrow(
      await call(
        requestTo(gateway, {
          tools: [{ name: "mcp__crm__find", description: "Finds", inputSchema: { type: "object" } }],
          messages: [
            { role: "user", text: "Find acme." },
            {
              role: "assistant",
              text: "",
              toolCalls: [{ id: "call_0", name: "mcp__crm__find", arguments: { q: "x" } }]
            },
            { role: "tool", callId: "call_0", text: "none", isError: false }
          ]
        })
      )
    )
    expect(answer).toMatchObject({
      finishReason: "tool_calls",
      toolCalls: [{ id: "call_1", name: "mcp__crm__find", arguments: { q: "acme" } }]
    })
    const body = model.received.at(-1)!.body
    expect(body.tools).toEqual([
      { type: "function", function: { name: "mcp__crm__find", description: "Finds", parameters: { type: "object" } } }
    ])
    expect(body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_0", type: "function", function: { name: "mcp__crm__find", arguments: '{"q":"x"}' } }]
      },
      { role: "tool", tool_call_id: "call_0", content: "none" }
    ])
  })

  it("asks JSON as json_object from a gateway without structured outputs, json_schema from one with them", async () => {
    model.script(openAiText('{"a":1}'), openAiText('{"a":1}'))
    const schema = { type: "object", properties: { a: { type: "number" } } }
    await call(requestTo(gateway, { output: { format: "json", schema } }))
    expect(model.received.at(-1)!.body.response_format).toEqual({ type: "json_object" })
    await call(requestTo({ ...gateway, structuredOutputs: true }, { output: { format: "json", schema } }))
    expect(model.received.at(-1)!.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema }
    })
  })

  it("maps each refusal to its failure kind, with the provider's words and its delay", async () => {
    const refusal = (status: number, message: string, headers: Record<string, string> = {}) => ({
      status,
      headers,
      body: { error: { message, code: message } }
    })
    model.script(
      refusal(401, "bad key"),
      refusal(429, "slow down", { "retry-after": "3" }),
      refusal(503, "overloaded"),
      refusal(400, "content_policy_violation"),
      refusal(404, "no such model"),
      { body: { nothing: true } }
    )
    const kinds = []
    for (let index = 0; index < 6; index++) {
      const failure = await call(requestTo(gateway))
      kinds.push(Either.isLeft(failure) ? failure.left : undefined)
    }
    expect(kinds.map((failure) => [failure?.kind, failure?.status])).toEqual([
      ["credentials_rejected", 401],
      ["rate_limited", 429],
      ["provider_unavailable", 503],
      ["content_refused", 400],
      ["definition_invalid", 404],
      ["provider_unavailable", undefined]
    ])
    expect(kinds[1]).toMatchObject({ retryAfterMs: 3000, providerMessage: "slow down" })
  })

  it("answers provider_unavailable when nothing listens", async () => {
    const failure = await call(requestTo({ ...gateway, baseUrl: "http://127.0.0.1:1/v1" }))
    expect(Either.isLeft(failure) && failure.left.kind).toBe("provider_unavailable")
  })

  it("lists the models of GET /models", async () => {
    model.list({ body: { object: "list", data: [{ id: "qwen3-14b", created: 1700000000, owned_by: "someone" }] } })
    const listed = await provide(Effect.flatMap(ModelProvider, (port) => port.list(gateway)))
    expect(Either.getOrThrow(listed)).toEqual([{ id: "qwen3-14b", created: 1700000000 }])
  })
})

describe("Anthropic Messages over HTTP", () => {
  let model: ScriptedModel
  let anthropic: ModelProviderEntry
  beforeAll(async () => {
    model = await startScriptedModel("anthropic")
    anthropic = { name: "anthropic", api: "anthropic", baseUrl: model.baseUrl, apiKey: "sk-ant-scripted-0001" }
  })
  afterAll(() => model.close())

  it("sends the system text apart, with the key and version headers, and reads text and usage", async () => {
    model.script(anthropicText("Hello."))
    const answer = Either.getOrThrow(await call(requestTo(anthropic)))
    expect(answer).toMatchObject({
      text: "Hello.",
      finishReason: "stop",
      rawFinishReason: "end_turn",
      usage: { input: { uncached: 10, cacheRead: 3, cacheWrite: 0 }, output: { text: 4 }, total: 17 }
    })
    const sent = model.received.at(-1)!
    expect([sent.headers["x-api-key"], sent.headers["anthropic-version"]]).toEqual([
      "sk-ant-scripted-0001",
      "2023-06-01"
    ])
    expect(sent.body).toMatchObject({
      system: "Be brief.",
      max_tokens: 64,
      messages: [{ role: "user", content: [{ type: "text", text: "Say hello." }] }]
    })
  })

  it("asks JSON through a forced answer tool and reads its input as the answer", async () => {
    const schema = { type: "object", properties: { a: { type: "number" } } }
    model.script(anthropicToolUse([{ id: "toolu_1", name: answerTool, input: { a: 1 } }]))
    const answer = Either.getOrThrow(await call(requestTo(anthropic, { output: { format: "json", schema } })))
    expect([answer.text, answer.toolCalls, answer.finishReason]).toEqual(['{"a":1}', [], "stop"])
    expect(model.received.at(-1)!.body).toMatchObject({
      tools: [{ name: answerTool, input_schema: schema }],
      tool_choice: { type: "tool", name: answerTool }
    })
  })

  it("joins tool results into one user turn after the model's tool calls", async () => {
    model.script(anthropicText("Done."))
    await call(
      requestTo(anthropic, {
        messages: [
          { role: "user", text: "Look both up." },
          {
            role: "assistant",
            text: "",
            toolCalls: [
              { id: "t1", name: "mcp__crm__find", arguments: { q: "a" } },
              { id: "t2", name: "mcp__crm__find", arguments: { q: "b" } }
            ]
          },
          { role: "tool", callId: "t1", text: "A", isError: false },
          { role: "tool", callId: "t2", text: "B", isError: true }
        ]
      })
    )
    expect(model.received.at(-1)!.body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "t1", name: "mcp__crm__find", input: { q: "a" } },
          { type: "tool_use", id: "t2", name: "mcp__crm__find", input: { q: "b" } }
        ]
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "A", is_error: false },
          { type: "tool_result", tool_use_id: "t2", content: "B", is_error: true }
        ]
      }
    ])
  })

  it("sends the anthropic namespace's thinking under its API names", async () => {
    model.script(anthropicText("Thought."))
    await call(requestTo(anthropic, { providerOptions: { thinking: { type: "enabled", budgetTokens: 1024 } } }))
    expect(model.received.at(-1)!.body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 })
  })

  it("maps 529 to provider_unavailable", async () => {
    model.script({ status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } })
    const failure = await call(requestTo(anthropic))
    expect(Either.isLeft(failure) && [failure.left.kind, failure.left.providerMessage]).toEqual([
      "provider_unavailable",
      "Overloaded"
    ])
  })

  it("lists the models of GET /v1/models with their names and release times", async () => {
    model.list({
      body: {
        data: [
          {
            type: "model",
            id: "claude-sonnet-4-5",
            display_name: "Claude Sonnet 4.5",
            created_at: "2025-09-29T00:00:00Z"
          }
        ],
        has_more: false,
        last_id: "claude-sonnet-4-5"
      }
    })
    const listed = await provide(Effect.flatMap(ModelProvider, (port) => port.list(anthropic)))
    expect(Either.getOrThrow(listed)).toEqual([
      { id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5", created: 1759104000 }
    ])
  })
})
