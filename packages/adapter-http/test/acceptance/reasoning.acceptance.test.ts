import { createHash, randomUUID } from "node:crypto"
import { Ledger, type RuntimeSettings } from "@runledger/core"
import { HttpModelProvider } from "@runledger/model-providers"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  anthropicText,
  heldReply,
  openAiText,
  type ScriptedModel,
  startScriptedModel
} from "../../../model-providers/test/scriptedModel.js"
import { newPlaybook } from "./newPlaybook.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** A text reasoning function on the gateway, with a system block, a default and a filter. */
const summarize = `---
description: Summarizes a brief
model: gateway/scripted-1
config:
  max_output_tokens: 200
  temperature: 0.1
input:
  schema:
    type: object
    required: [brief]
    additionalProperties: false
    properties:
      brief: { type: string }
      tone: { type: string }
  default:
    tone: plain
---
{% system %}You summarize briefs in a {{ input.tone }} tone.{% endsystem %}
Summarize: {{ input.brief | clip: 40 }}
`

/** A JSON reasoning function, through the alias house/fast. */
const classify = `---
model: house/fast
output:
  format: json
  schema:
    type: object
    required: [category]
    additionalProperties: false
    properties:
      category: { type: string, enum: [billing, bug] }
---
Classify this ticket: {{ input.ticket }}
`

const withModel = (model: string) => summarize.replace("gateway/scripted-1", model)

onEveryStore("reasoning functions over HTTP", (store) => {
  let server: AcceptanceServer
  let bare: AcceptanceServer
  let gateway: ScriptedModel
  let anthropic: ScriptedModel
  /** The runtime's clock, moved past a model call's deadline by the test of a call that never answers. */
  const clock = makeShiftedClock()
  beforeAll(async () => {
    gateway = await startScriptedModel("openai")
    anthropic = await startScriptedModel("anthropic")
    const settings: Partial<RuntimeSettings> = {
      models: {
        providers: [
          {
            name: "gateway",
            api: "openai",
            baseUrl: gateway.baseUrl,
            apiKey: "sk-gateway-secret-1",
            costHeader: "x-cost",
            allowedProviderOptions: ["top_k"]
          },
          { name: "anthropic", api: "anthropic", baseUrl: anthropic.baseUrl, apiKey: "sk-anthropic-secret-1" }
        ],
        aliases: { "house/fast": "anthropic/claude-scripted" },
        allowedModels: ["gateway/*", "house/fast", "other/*"]
      }
    }
    server = await startAcceptanceServer(store(), settings, clock.layer, { modelProvider: HttpModelProvider.layer })
    bare = await startAcceptanceServer(store())
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await bare?.close()
    await gateway?.close()
    await anthropic?.close()
  })

  const playbook = (on: AcceptanceServer = server) => newPlaybook(on, "rs")
  const save = async (base: string, name: string, source: string, on: AcceptanceServer = server) => {
    const saved = await on.send("POST", `${base}/definitions/reasoning`, { name, source, diagram: "none" })
    expect(saved.status).toBe(201)
    return saved
  }
  const run = (base: string, name: string, input: unknown, on: AcceptanceServer = server) =>
    on.send("POST", `${base}/definitions/reasoning/${name}/run`, { input })

  it("runs a text function: renders the prompt, calls the model, records each call with tokens and cost", async () => {
    const base = await playbook()
    const saved = await save(base, "summarize", summarize)
    expect(saved.body).toMatchObject({ type: "reasoning", version: 1, input_schema: { type: "object" } })
    gateway.script({ ...openAiText("A short summary."), headers: { "x-cost": "0.0031" } })
    const ran = await run(base, "summarize", { brief: "The quarterly numbers are in and they look good overall." })
    expect(ran.status).toBe(200)
    expect(ran.body).toMatchObject({ status: "succeeded", output: "A short summary." })
    expect(ran.body.record).toMatchObject({
      model: { requested: "gateway/scripted-1", resolved: "gateway/scripted-1", answered: "scripted-1" },
      settings: { max_output_tokens: 200, temperature: 0.1 },
      output_format: "text",
      finish_reason: "stop",
      usage: { input: { uncached: 10, cache_read: 2 }, output: { text: 5 }, total: 17 },
      cost_usd: 0.0031,
      prompt: {
        instructions: "You summarize briefs in a plain tone.",
        message: "Summarize: The quarterly numbers are in and they lo…",
        truncated: false
      }
    })
    expect(gateway.calls().at(-1).messages).toEqual([
      { role: "system", content: "You summarize briefs in a plain tone." },
      { role: "user", content: "Summarize: The quarterly numbers are in and they lo…" }
    ])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.map((event: any) => event.type)).toEqual([
      "run_started",
      "model_call_started",
      "model_call_answered",
      "run_succeeded"
    ])
    const [, started, answered] = history.body.events
    expect(started.data).toMatchObject({
      number: 1,
      attempt: 1,
      step: "final",
      model: { requested: "gateway/scripted-1", resolved: "gateway/scripted-1" },
      settings: { max_output_tokens: 200 },
      tools_offered: 0
    })
    expect(started.data.messages[0]).toEqual({ role: "system", content: "You summarize briefs in a plain tone." })
    expect(answered.data).toMatchObject({
      number: 1,
      finish_reason: "stop",
      response: "A short summary.",
      tool_calls: [],
      cost_usd: 0.0031,
      usage: { total: 17 }
    })
    const text = JSON.stringify(history.body)
    expect(text).not.toContain("sk-gateway-secret-1")
    const analytics = await server.send("GET", `${base}/analytics?days=7`)
    expect(analytics.body.by_function).toEqual([
      { type: "reasoning", name: "summarize", runs: 1, tokens: { input: 12, output: 5, cached: 2 }, cost_usd: 0.0031 }
    ])
  })

  it("keeps a model call's messages and response in the content store: sizes past 2 KiB, get_event in full", async () => {
    const base = await playbook()
    await save(base, "classify", classify)
    anthropic.script(anthropicText('{"category":"bug"}'))
    const ticket = Array.from({ length: 100 }, () => "The export button does nothing.").join(" ")
    const ran = await run(base, "classify", { ticket })
    expect([ran.status, ran.body.output]).toEqual([200, { category: "bug" }])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    const [, started, answered] = history.body.events
    expect(started.type).toBe("model_call_started")
    expect(started.data.messages).toBeUndefined()
    expect(started.data.messages_bytes).toBeGreaterThan(2048)
    expect(answered.data).toMatchObject({ response: { category: "bug" }, response_bytes: 18, tool_calls: [] })
    const inFull = await server.send("GET", `${base}/events/${started.id}`)
    expect(inFull.body.data.messages).toEqual([{ role: "user", content: `Classify this ticket: ${ticket}` }])
    expect(new TextEncoder().encode(JSON.stringify(inFull.body.data.messages)).length).toBe(started.data.messages_bytes)
    // The facts themselves name the texts by digest; the content store holds them.
    const facts = await server.runtime.runPromise(
      Effect.flatMap(Ledger, (ledger) => Effect.forEach([started.id, answered.id], (id) => ledger.readFact(id)))
    )
    const [startedFact, answeredFact] = facts.map((found) => Option.getOrThrow(found).fact.data as any)
    expect(Object.keys(startedFact)).not.toContain("messages")
    expect(Object.keys(answeredFact)).not.toContain("response")
    expect(Object.keys(answeredFact)).not.toContain("tool_calls")
    expect(JSON.stringify(startedFact)).not.toContain("export button")
    expect(startedFact.messages_sha256).toBe(
      createHash("sha256").update(JSON.stringify(inFull.body.data.messages)).digest("hex")
    )
  })

  it("runs a JSON function through an alias and asks once for a repair of an answer its schema refuses", async () => {
    const base = await playbook()
    await save(base, "classify", classify)
    anthropic.script(anthropicText('{"category":"sales"}'), anthropicText('{"category":"billing"}'))
    const ran = await run(base, "classify", { ticket: "I was charged twice" })
    expect([ran.status, ran.body.output]).toEqual([200, { category: "billing" }])
    expect(ran.body.record.model).toEqual({
      requested: "house/fast",
      resolved: "anthropic/claude-scripted",
      answered: "claude-scripted"
    })
    const repair = anthropic.calls().at(-1)
    expect(repair.model).toBe("claude-scripted")
    expect(repair.messages.at(-1).content[0].text).toContain("/output/category must be one of")
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    const calls = history.body.events.filter((event: any) => event.type === "model_call_started")
    expect(calls.map((event: any) => [event.data.number, event.data.repair ?? false])).toEqual([
      [1, false],
      [2, true]
    ])
  })

  it("ends a JSON answer that still does not fit as 503 output_invalid, keeping the tokens it spent", async () => {
    const base = await playbook()
    await save(base, "classify", classify)
    anthropic.script(anthropicText("not json"), anthropicText('{"category":"other"}'))
    const ran = await run(base, "classify", { ticket: "?" })
    expect([ran.status, ran.body.reason, ran.body.because]).toEqual([503, "unavailable", "output_invalid"])
    const read = await server.send("GET", `${base}/runs/${ran.body.run_id}`)
    expect(read.body.status).toBe("rejected")
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.at(-1).data.record.usage.output.text).toBe(8)
  })

  it("ends a JSON answer cut at max_output_tokens as 409 unworkable without a repair; a text one cut succeeds", async () => {
    const base = await playbook()
    await save(base, "classify", classify)
    await save(base, "summarize", summarize)
    const asked = anthropic.calls().length
    anthropic.script(anthropicText('{"category":"bil', { stop: "max_tokens" }))
    const cut = await run(base, "classify", { ticket: "?" })
    expect([cut.status, cut.body.reason, cut.body.kind]).toEqual([409, "conflict", "unworkable"])
    expect(anthropic.calls().length).toBe(asked + 1)
    gateway.script(openAiText("A summary that stops", { finish: "length" }))
    const text = await run(base, "summarize", { brief: "x" })
    expect([text.status, text.body.output, text.body.record.finish_reason]).toEqual([
      200,
      "A summary that stops",
      "length"
    ])
  })

  it("lists the models a function may name over HTTP, narrowed by the allow list, as list_models does over MCP", async () => {
    gateway.list({ body: { object: "list", data: [{ id: "scripted-1", created: 1760486400 }] } })
    const listed = await server.send("GET", "/v1/orgs/local/models")
    expect(listed.status).toBe(200)
    expect(listed.body).toMatchObject({ object: "list", catalog_status: "complete", narrowed: true })
    expect(listed.body.data).toEqual([
      { id: "gateway/scripted-1", object: "model", created: 1760486400, owned_by: "gateway" },
      {
        id: "house/fast",
        object: "model",
        created: 0,
        owned_by: "anthropic",
        alias: true,
        resolved_to: "anthropic/claude-scripted"
      }
    ])
    expect(JSON.stringify(listed.body)).not.toContain("sk-gateway-secret-1")
    const refused = await server.send("GET", "/v1/orgs/local/models?provider=Not-A-Prefix")
    expect([refused.status, refused.body.errors[0].pointer]).toEqual([422, "/provider"])
  })

  it("refuses models the runtime does not offer before any provider is called", async () => {
    const base = await playbook()
    await save(base, "not-allowed", withModel("openai/gpt-5"))
    await save(base, "no-provider", withModel("other/model-1"))
    const calls = gateway.received.length + anthropic.received.length
    const notAllowed = await run(base, "not-allowed", { brief: "x" })
    expect([notAllowed.status, notAllowed.body.kind, notAllowed.body.because]).toEqual([
      503,
      "model_not_offered",
      "model_not_allowed"
    ])
    expect(notAllowed.headers.get("retry-after")).toBeNull()
    const noProvider = await run(base, "no-provider", { brief: "x" })
    expect([noProvider.status, noProvider.body.kind, noProvider.body.because]).toEqual([
      503,
      "model_not_offered",
      "provider_not_configured"
    ])
    expect(noProvider.body.detail).toContain("gateway, anthropic")
    expect(noProvider.body.detail).not.toContain(gateway.baseUrl)
    expect(gateway.received.length + anthropic.received.length).toBe(calls)
    const bareBase = await playbook(bare)
    await save(bareBase, "summarize", summarize, bare)
    const none = await run(bareBase, "summarize", { brief: "x" }, bare)
    expect([none.status, none.body.kind, none.body.detail]).toEqual([
      503,
      undefined,
      "No model provider is configured on this runtime."
    ])
    expect(none.headers.get("retry-after")).toBe("60")
  })

  it("maps the provider's refusals: a refused key, a content refusal, a model it does not have", async () => {
    const base = await playbook()
    await save(base, "summarize", summarize)
    gateway.script(
      { status: 401, body: { error: { message: "invalid key sk-gateway-secret-1" } } },
      { status: 400, body: { error: { message: "flagged", code: "content_filter" } } },
      { status: 404, body: { error: { message: "no such model" } } }
    )
    const key = await run(base, "summarize", { brief: "x" })
    expect([key.status, key.body.reason, key.body.kind]).toEqual([503, "unavailable", undefined])
    expect(key.body.detail).not.toContain("sk-gateway-secret-1")
    const content = await run(base, "summarize", { brief: "y" })
    expect([content.status, content.body.errors[0].pointer]).toEqual([422, "/input"])
    const missing = await run(base, "summarize", { brief: "z" })
    expect([missing.status, missing.body.kind]).toEqual([409, "unworkable"])
    const history = await server.send("GET", `${base}/runs/${key.body.run_id}/history`)
    expect(history.body.events.map((event: any) => [event.type, event.data.because ?? null])).toEqual([
      ["run_started", null],
      ["model_call_started", null],
      ["model_call_failed", "credentials_rejected"],
      ["run_rejected", null]
    ])
  })

  it("tries a request the provider could not take once more, recording each attempt", async () => {
    const base = await playbook()
    await save(base, "summarize", summarize)
    gateway.script(
      { status: 503, headers: { "retry-after-ms": "10" }, body: { error: { message: "busy" } } },
      openAiText("Fine.")
    )
    const ran = await run(base, "summarize", { brief: "x" })
    expect([ran.status, ran.body.output]).toEqual([200, "Fine."])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(
      history.body.events.map((event: any) => [event.type, event.data.number ?? null, event.data.attempt ?? null])
    ).toEqual([
      ["run_started", null, 1],
      ["model_call_started", 1, 1],
      ["model_call_failed", 1, 1],
      ["model_call_started", 1, 2],
      ["model_call_answered", 1, 2],
      ["run_succeeded", null, null]
    ])
  })

  it("keeps the delay a provider's 429 or 503 asks in the run's rejection, and answers it as Retry-After", async () => {
    const base = await playbook()
    await save(base, "summarize", summarize)
    gateway.script(
      { status: 429, headers: { "retry-after": "120" }, body: { error: { message: "slow down" } } },
      { status: 503, headers: { "retry-after": "90" }, body: { error: { message: "down" } } }
    )
    const limited = await run(base, "summarize", { brief: "x" })
    expect([limited.status, limited.body.reason, limited.headers.get("retry-after")]).toEqual([
      503,
      "unavailable",
      "120"
    ])
    const down = await run(base, "summarize", { brief: "y" })
    expect([down.status, down.headers.get("retry-after")]).toEqual([503, "90"])
    const history = await server.send("GET", `${base}/runs/${down.body.run_id}/history?order=desc&limit=1`)
    expect(history.body.events[0]).toMatchObject({ type: "run_rejected", data: { record: { retry_after_ms: 90_000 } } })
  })

  it("ends a call the provider could not take in three attempts as 503 with its delay, each attempt recorded", async () => {
    const base = await playbook()
    await save(base, "summarize", summarize)
    const busy = { status: 502, headers: { "retry-after-ms": "10" }, body: { error: { message: "bad gateway" } } }
    gateway.script(busy, busy, busy)
    const ran = await run(base, "summarize", { brief: "x" })
    expect([ran.status, ran.body.reason, ran.body.kind, ran.headers.get("retry-after")]).toEqual([
      503,
      "unavailable",
      undefined,
      "1"
    ])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(
      history.body.events
        .filter((event: any) => event.type === "model_call_failed")
        .map((event: any) => [event.data.attempt, event.data.because])
    ).toEqual([
      [1, "provider_unavailable"],
      [2, "provider_unavailable"],
      [3, "provider_unavailable"]
    ])
  })

  it("ends a call that does not answer within its deadline as 503 model_unavailable, with Retry-After", async () => {
    const base = await playbook()
    await save(base, "summarize", summarize)
    const held = heldReply(openAiText("Too late."))
    gateway.script(held.reply)
    const running = run(base, "summarize", { brief: "x" })
    await held.reached
    // 60 s + 25 ms × 200 tokens is the call's deadline; the clock passes it while the provider holds its answer.
    clock.shift("70 seconds")
    const ran = await running
    held.release()
    expect([ran.status, ran.body.reason, ran.body.because, ran.headers.get("retry-after")]).toEqual([
      503,
      "unavailable",
      "model_unavailable",
      "30"
    ])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.map((event: any) => [event.type, event.data.because ?? null])).toEqual([
      ["run_started", null],
      ["model_call_started", null],
      ["model_call_failed", "timed_out"],
      ["run_rejected", "model_unavailable"]
    ])
  })

  it("answers a request under the id of a run going in this server once the run ends, performing nothing again", async () => {
    const base = await playbook()
    await save(base, "summarize", summarize)
    const held = heldReply(openAiText("Once."))
    gateway.script(held.reply)
    const body = { input: { brief: "x" }, run_id: randomUUID() }
    const path = `${base}/definitions/reasoning/summarize/run`
    const first = server.send("POST", path, body)
    await held.reached
    let [released, answeredEarly] = [false, false]
    const second = server.send("POST", path, body).then((answer) => {
      answeredEarly = !released
      return answer
    })
    // Time for the second request to reach the run; before this change it was answered taken at once.
    await new Promise((resolve) => setTimeout(resolve, 500))
    released = true
    held.release()
    const [one, two] = await Promise.all([first, second])
    expect(answeredEarly).toBe(false)
    expect([one.status, one.body.output, two.status, two.body.output]).toEqual([200, "Once.", 200, "Once."])
    const history = await server.send("GET", `${base}/runs/${body.run_id}/history`)
    expect(history.body.events.map((event: any) => event.type)).toEqual([
      "run_started",
      "model_call_started",
      "model_call_answered",
      "run_succeeded"
    ])
  })

  it("sends the options a gateway allows, and refuses others before the gateway is called", async () => {
    const base = await playbook()
    const withOptions = (options: string) =>
      summarize.replace("input:\n", `provider_options:\n  gateway: { ${options} }\ninput:\n`)
    await save(base, "allowed", withOptions("top_k: 5"))
    await save(base, "refused", withOptions("top_k: 5, store: true"))
    gateway.script(openAiText("Ok."))
    const allowed = await run(base, "allowed", { brief: "x" })
    expect([allowed.status, gateway.calls().at(-1).top_k]).toEqual([200, 5])
    const calls = gateway.received.length
    const refused = await run(base, "refused", { brief: "x" })
    expect([refused.status, refused.body.kind]).toEqual([409, "unworkable"])
    expect(refused.body.detail).toContain("store")
    expect(gateway.received.length).toBe(calls)
  })

  it("refuses an input its schema refuses, and a prompt that reads a field the input lacks", async () => {
    const base = await playbook()
    await save(base, "summarize", summarize)
    const refused = await run(base, "summarize", { tone: "dry" })
    expect([refused.status, refused.body.kind, refused.body.errors[0].pointer]).toEqual([
      422,
      "input_schema",
      "/input/brief"
    ])
    await save(base, "open-input", "---\nmodel: gateway/scripted-1\n---\nHello {{ input.name }}\n")
    const missing = await run(base, "open-input", {})
    expect([missing.status, missing.body.errors[0].pointer]).toEqual([422, "/input"])
    expect(missing.body.detail).toContain("input.name on line 4")
  })

  it("refuses documents it cannot run at save, each issue at its line", async () => {
    const base = await playbook()
    const refuse = async (source: string) => {
      const saved = await server.send("POST", `${base}/definitions/reasoning`, { name: "bad", source, diagram: "none" })
      expect(saved.status).toBe(422)
      return saved.body.errors.map((issue: any) => issue.detail)
    }
    expect(await refuse("---\nmodel: no-slash\n---\nHi\n")).toEqual([
      expect.stringMatching(/^Line 2, column 8: at \/model: expected provider\/model/)
    ])
    expect(await refuse("---\nmodel: a/b\noutput:\n  format: json\n---\nHi\n")).toEqual([
      expect.stringMatching(/at \/output: output.format json needs output.schema/)
    ])
    expect(
      await refuse("---\nmodel: a/b\n---\n{% system %}a{% endsystem %}{% system %}b{% endsystem %}\nHi\n")
    ).toEqual([expect.stringMatching(/^Line 4, column 1: at \/body: a prompt holds at most one system block/)])
    expect(await refuse("---\nmodel: a/b\n---\n{% system %}only instructions{% endsystem %}\n")).toEqual([
      expect.stringMatching(/the prompt writes no message outside its system block/)
    ])
    expect(await refuse("---\nmodel: a/b\ntools: [crm/find, crm/find]\n---\nHi {{ user }}\n")).toEqual([
      expect.stringMatching(/^Line 3, column \d+: at \/tools\/1: crm\/find is named twice/),
      expect.stringMatching(/^Line 5, column 7: at \/body: unknown variable user/)
    ])
  })
})
