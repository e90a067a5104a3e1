import { randomUUID } from "node:crypto"
import type { RuntimeSettings } from "@runledger/core"
import { HttpModelProvider } from "@runledger/model-providers"
import { ToolServersLive } from "@runledger/tool-servers"
import { Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  heldReply,
  openAiText,
  openAiToolCalls,
  type ScriptedModel,
  startScriptedModel
} from "../../../model-providers/test/scriptedModel.js"
import { type InventoryHttp, serveInventory } from "../../../tool-servers/test/fakes/inventoryHttp.js"
import { inventoryEntry } from "./inventoryEntry.js"
import { newPlaybook } from "./newPlaybook.js"
import { refusalOf } from "./refusalOf.js"
import { stoppedRun } from "./stoppedRun.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** The key the fake inventory server takes, which nothing the runtime answers or records may show. */
const inventoryKey = "inv-secret-key-4217"

/** A reasoning function that reads stock with two tools of the inventory server. */
const stockCheck = (tools: string) => `---
model: gateway/scripted-1
tools: ${tools}
---
{% system %}You answer stock questions with the inventory tools.{% endsystem %}
How much of {{ input.sku }} is there?
`

const getStock = "mcp__inventory__get_stock_level"
const describeWarehouse = "mcp__inventory__describe_warehouse"
const createNote = "mcp__inventory__create_note"

onEveryStore("reasoning functions with tools over HTTP", (store) => {
  let server: AcceptanceServer
  let gateway: ScriptedModel
  let inventory: InventoryHttp
  beforeAll(async () => {
    gateway = await startScriptedModel("openai")
    inventory = await serveInventory(inventoryKey, "acme")
    const settings: Partial<RuntimeSettings> = {
      models: { providers: [{ name: "gateway", api: "openai", baseUrl: gateway.baseUrl }] },
      toolServers: [
        inventoryEntry(inventory, {
          allowed: ["get_stock_level", "describe_warehouse", "create_note", "no_such_tool"],
          marks: { describe_warehouse: "reads" }
        }),
        // The same server under another name, whose calls' content the playbook does not keep.
        { ...inventoryEntry(inventory, { allowed: ["get_stock_level"], recordContent: false }), name: "quiet" }
      ]
    }
    server = await startAcceptanceServer(store(), settings, Layer.empty, {
      modelProvider: HttpModelProvider.layer,
      toolServers: ToolServersLive.layer({ INVENTORY_KEY: inventoryKey })
    })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await gateway?.close()
    await inventory?.close()
  })

  const playbook = () => newPlaybook(server, "rt")
  const save = async (base: string, name: string, source: string) => {
    const saved = await server.send("POST", `${base}/definitions/reasoning`, { name, source, diagram: "none" })
    expect(saved.status).toBe(201)
  }
  const run = (base: string, name: string, input: unknown, runId?: string) =>
    server.send("POST", `${base}/definitions/reasoning/${name}/run`, {
      input,
      ...(runId === undefined ? {} : { run_id: runId })
    })

  it("calls two tools through the loop and records each model call and tool call with sizes and digests", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level, inventory/describe_warehouse]"))
    gateway.script(
      openAiToolCalls([
        { id: "call_a", name: getStock, arguments: { sku: "SKU-7" } },
        { id: "call_b", name: describeWarehouse, arguments: { warehouse: "north" } }
      ]),
      openAiText("There are 41 on hand in the north warehouse.")
    )
    const ran = await run(base, "stock", { sku: "SKU-7" })
    expect([ran.status, ran.body.output]).toEqual([200, "There are 41 on hand in the north warehouse."])
    const [first, second] = gateway.calls().slice(-2)
    expect(first.tools.map((tool: any) => tool.function.name)).toEqual([getStock, describeWarehouse])
    expect(second.messages.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_a", content: expect.stringContaining('"on_hand":41') },
      { role: "tool", tool_call_id: "call_b", content: "The north warehouse." }
    ])
    expect(inventory.calls.slice(-2).map((call) => [call.name, call.meta["io.runledger/run_id"]])).toEqual([
      ["get_stock_level", ran.body.run_id],
      ["describe_warehouse", ran.body.run_id]
    ])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    const events = history.body.events
    expect(events.map((event: any) => event.type)).toEqual([
      "run_started",
      "model_call_started",
      "model_call_answered",
      "tool_call_started",
      "tool_call_answered",
      "tool_call_started",
      "tool_call_answered",
      "model_call_started",
      "model_call_answered",
      "run_succeeded"
    ])
    expect(events[0].data.calls_tools).toBe(true)
    expect(events[1].data).toMatchObject({ number: 1, step: "with_tools", tools_offered: 2 })
    // A model call's messages, response and tool calls are kept by digest and shown beside it (decision F2).
    expect(events[1].data).toMatchObject({
      messages_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      messages_bytes: new TextEncoder().encode(JSON.stringify(events[1].data.messages)).length,
      messages: [
        { role: "system", content: "You answer stock questions with the inventory tools." },
        { role: "user", content: "How much of SKU-7 is there?" }
      ]
    })
    expect(events[2].data).toMatchObject({
      tool_calls_count: 2,
      tool_calls_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      response_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      response: ""
    })
    expect(events[2].data.tool_calls).toEqual([
      { call_id: "call_a", tool: getStock, arguments: { sku: "SKU-7" } },
      { call_id: "call_b", tool: describeWarehouse, arguments: { warehouse: "north" } }
    ])
    expect(events[8].data.tool_calls).toEqual([])
    expect(events[8].data.response).toBe("There are 41 on hand in the north warehouse.")
    expect(events[7].data.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { call_id: "call_a", tool: getStock },
          { call_id: "call_b", tool: describeWarehouse }
        ]
      },
      { role: "tool", call_id: "call_a", content: expect.stringContaining('"on_hand":41'), is_error: false },
      { role: "tool", call_id: "call_b", content: "The north warehouse.", is_error: false }
    ])
    const asked = await server.send("GET", `${base}/events/${events[7].id}`)
    expect(asked.body.data.messages).toEqual(events[7].data.messages)
    expect(events[3].data).toMatchObject({
      number: 1,
      call_id: "call_a",
      server: "inventory",
      tool: "get_stock_level",
      arguments_bytes: 15,
      arguments_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      content_kept: true,
      read_only: true
    })
    expect(events[4].data).toMatchObject({
      number: 1,
      is_error: false,
      result_bytes: expect.any(Number),
      result_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      content_kept: true
    })
    expect(events[5].data).toMatchObject({ number: 2, tool: "describe_warehouse", read_only: true })
    expect(events[7].data).toMatchObject({ number: 2, step: "with_tools" })
    expect(new TextEncoder().encode(JSON.stringify(events[3].data.arguments)).length).toBe(15)
    expect(events[4].data.result).toBeDefined()
    const one = await server.send("GET", `${base}/events/${events[4].id}`)
    expect(one.body.data.result_sha256).toBe(events[4].data.result_sha256)
    expect(one.body.data.result).toEqual(events[4].data.result)
    const started = await server.send("GET", `${base}/events/${events[3].id}`)
    expect(started.body.data.arguments).toEqual(events[3].data.arguments)
    expect(JSON.stringify(history.body)).not.toContain(inventoryKey)
  })

  it("keeps no content of a call to a server whose record_content is off: sizes alone, in its facts and the model's", async () => {
    const base = await playbook()
    await save(base, "quiet", stockCheck("[quiet/get_stock_level]"))
    gateway.script(
      openAiToolCalls([{ id: "call_q", name: "mcp__quiet__get_stock_level", arguments: { sku: "Q-1" } }]),
      openAiText("41.")
    )
    const ran = await run(base, "quiet", { sku: "Q-1" })
    expect([ran.status, ran.body.output]).toEqual([200, "41."])
    const events = (await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)).body.events
    const [answered, started, result, asked] = [2, 3, 4, 5].map((index) => events[index])
    expect(answered.data.tool_calls).toEqual([
      { call_id: "call_q", tool: "mcp__quiet__get_stock_level", arguments_bytes: JSON.stringify({ sku: "Q-1" }).length }
    ])
    expect(started.data).toMatchObject({
      server: "quiet",
      content_kept: false,
      arguments_bytes: JSON.stringify({ sku: "Q-1" }).length
    })
    expect([started.data.arguments_sha256, started.data.arguments]).toEqual([undefined, undefined])
    expect(result.data).toMatchObject({ content_kept: false, result_bytes: expect.any(Number) })
    expect([result.data.result_sha256, result.data.result]).toEqual([undefined, undefined])
    expect(asked.data.messages.at(-1)).toEqual({
      role: "tool",
      call_id: "call_q",
      content_bytes: expect.any(Number),
      is_error: false
    })
    const inFull = await server.send("GET", `${base}/events/${result.id}`)
    expect(inFull.body.data.result).toBeUndefined()
    // The model itself was given the result, which the playbook does not keep.
    expect(gateway.calls().at(-1).messages.at(-1)).toMatchObject({
      role: "tool",
      content: expect.stringContaining("Q-1")
    })
  })

  it("refuses tools the playbook's servers do not offer before the model is called", async () => {
    const base = await playbook()
    await save(base, "unknown-server", stockCheck("[crm/find]"))
    await save(base, "unlisted", stockCheck("[inventory/no_such_tool]"))
    await save(base, "not-allowed", stockCheck("[inventory/whoami]"))
    const calls = gateway.received.length
    const expectations = [
      ["unknown-server", "tool_server_not_configured"],
      ["unlisted", "tool_not_listed"],
      ["not-allowed", "tool_not_allowed"]
    ]
    for (const [name, because] of expectations) {
      const refused = await run(base, name!, { sku: "x" })
      expect([refused.status, refused.body.kind, refused.body.because]).toEqual([503, "tool_not_offered", because])
      expect(refused.headers.get("retry-after")).toBeNull()
    }
    expect(gateway.received.length).toBe(calls)
  })

  it("refuses a run whose tool server cannot be asked as tool_server_failed with its because, before the model is called", async () => {
    const base = await playbook()
    // A tool the kept listing lacks has the server asked anew (ADR 0306), and it answers 503 or 403.
    await save(base, "unlisted", stockCheck("[inventory/no_such_tool]"))
    const calls = gateway.received.length
    for (const [mode, because, retryAfter] of [
      ["failing", "failing", "30"],
      ["scope_lacking", "scope_lacking", null]
    ] as const) {
      inventory.mode = mode
      const refused = await run(base, "unlisted", { sku: "x" })
      inventory.mode = "serving"
      expect(refusalOf(refused)).toEqual([503, "tool_server_failed", because, retryAfter])
      const history = await server.send("GET", `${base}/runs/${refused.body.run_id}/history`)
      expect(history.body.events.map((event: any) => event.type)).toEqual(["run_started", "run_rejected"])
    }
    expect(gateway.received.length).toBe(calls)
  })

  it("ends a run whose model fails after a tool that acts as effect_unknown, and after tools that read as tools_unfinished", async () => {
    const base = await playbook()
    await save(base, "acts", stockCheck("[inventory/*]"))
    gateway.script(openAiToolCalls([{ id: "call_n", name: createNote, arguments: { sku: "S", text: "low" } }]), {
      status: 401,
      body: { error: { message: "key revoked" } }
    })
    const acted = await run(base, "acts", { sku: "S" })
    expect([acted.status, acted.body.reason, acted.body.kind]).toEqual([409, "conflict", "effect_unknown"])
    expect(acted.body.detail).toContain("inventory/create_note")
    const actedAgain = await server.send("POST", `${base}/definitions/reasoning/acts/run`, {
      input: { sku: "S" },
      run_id: acted.body.run_id
    })
    expect([actedAgain.status, actedAgain.body.kind, actedAgain.body.because]).toEqual([409, "tools_called", undefined])
    gateway.script(openAiToolCalls([{ id: "call_r", name: getStock, arguments: { sku: "S" } }]), {
      status: 401,
      body: { error: { message: "key revoked" } }
    })
    const read = await run(base, "acts", { sku: "T" })
    expect([read.status, read.body.reason, read.body.kind]).toEqual([503, "unavailable", "tools_unfinished"])
    expect(read.headers.get("retry-after")).toBeNull()
    const again = await server.send("POST", `${base}/definitions/reasoning/acts/run`, {
      input: { sku: "T" },
      run_id: read.body.run_id
    })
    expect([again.status, again.body.kind, again.body.because]).toEqual([409, "tools_called", "only_read"])
  })

  it("after 25 calls makes the final step without tools, retelling the calls with their results fenced", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    gateway.script(
      ...Array.from({ length: 25 }, (_, index) =>
        openAiToolCalls([{ id: `call_${index}`, name: getStock, arguments: { sku: `SKU-${index}` } }])
      ),
      openAiText("Plenty.")
    )
    const ran = await run(base, "stock", { sku: "all" })
    expect([ran.status, ran.body.output]).toEqual([200, "Plenty."])
    const final = gateway.calls().at(-1)
    expect(final.tools).toBeUndefined()
    expect(final.messages.some((message: any) => message.role === "tool")).toBe(false)
    const fenced = final.messages.find((message: any) => message.content?.startsWith?.("Tool data of call call_24"))
    const marker = /between the lines ([0-9a-f]{32})\./.exec(fenced.content)?.[1]
    expect(fenced.content).toContain(`${marker}\n{"ok":true`)
    // The global order shows a fact once every earlier append has passed it (the Postgres horizon): on a busy
    // server the last calls' events may show a moment after the run's answer.
    const listed = () => server.send("GET", `${base}/events?type=tool_call_started&run_id=${ran.body.run_id}&limit=100`)
    let started = await listed()
    for (let round = 0; round < 50 && started.body.events.length < 25; round++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      started = await listed()
    }
    expect(started.body.events).toHaveLength(25)
    const latest = await server.send("GET", `${base}/runs/${ran.body.run_id}/history?order=desc&limit=3`)
    expect(latest.body.events.map((event: any) => event.type)).toEqual([
      "run_succeeded",
      "model_call_answered",
      "model_call_started"
    ])
    expect(latest.body.events[2].data).toMatchObject({ number: 26, step: "final", tools_offered: 0 })
  })

  it("tells the model of a call it refuses, without sending or recording it", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    gateway.script(
      openAiToolCalls([{ id: "call_x", name: "mcp__inventory__not_offered", arguments: {} }]),
      openAiText("I could not look it up.")
    )
    const ran = await run(base, "stock", { sku: "SKU-1" })
    expect(ran.status).toBe(200)
    expect(gateway.calls().at(-1).messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_x",
      content: expect.stringContaining("This call was not made")
    })
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.some((event: any) => event.type.startsWith("tool_call"))).toBe(false)
  })

  it("refuses a third call with the same arguments and arguments over 16 KiB, telling the model, sending neither", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    const same = { name: getStock, arguments: { sku: "SAME" } }
    gateway.script(
      openAiToolCalls([
        { id: "call_1", ...same },
        { id: "call_2", ...same },
        { id: "call_3", ...same },
        { id: "call_big", name: getStock, arguments: { sku: "z".repeat(16_384) } }
      ]),
      openAiText("Done.")
    )
    const sent = inventory.calls.length
    const ran = await run(base, "stock", { sku: "SAME" })
    expect([ran.status, ran.body.output]).toEqual([200, "Done."])
    expect(inventory.calls.slice(sent).map((call) => call.arguments.sku)).toEqual(["SAME", "SAME"])
    const told = gateway.calls().at(-1).messages.slice(-2)
    expect(told).toEqual([
      {
        role: "tool",
        tool_call_id: "call_3",
        content: expect.stringContaining(
          "was already called twice with these arguments; its answer is above (call call_2)"
        )
      },
      { role: "tool", tool_call_id: "call_big", content: expect.stringContaining("more than 16 KiB as JSON") }
    ])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.filter((event: any) => event.type === "tool_call_started")).toHaveLength(2)
  })

  it("tells the model of a call its server refused with a 429 longer than 10 s, and goes on", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    gateway.script(
      openAiToolCalls([{ id: "call_s", name: getStock, arguments: { sku: "SLOW" } }]),
      openAiText("The stock server asked to wait.")
    )
    inventory.limitCalls("60")
    const ran = await run(base, "stock", { sku: "SLOW" })
    expect([ran.status, ran.body.output]).toEqual([200, "The stock server asked to wait."])
    expect(inventory.calls.filter((call) => call.arguments.sku === "SLOW")).toHaveLength(0)
    expect(gateway.calls().at(-1).messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_s" })
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.map((event: any) => [event.type, event.data.because ?? null])).toEqual([
      ["run_started", null],
      ["model_call_started", null],
      ["model_call_answered", null],
      ["tool_call_started", null],
      ["tool_call_failed", "server_failure"],
      ["model_call_started", null],
      ["model_call_answered", null],
      ["run_succeeded", null]
    ])
  })

  it("ends a run whose tool servers failed five times tools_unfinished, because server_failed", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    gateway.script(
      openAiToolCalls(
        Array.from({ length: 6 }, (_, index) => ({
          id: `call_${index}`,
          name: getStock,
          arguments: { sku: `F-${index}` }
        }))
      )
    )
    // A call by hand lists the tools on the held session, so the run finds them kept and its calls meet the 503s.
    const listed = await server.send("POST", `${base}/tool-servers/inventory/tools/get_stock_level/query`, {
      arguments: { sku: "F" }
    })
    expect(listed.status).toBe(200)
    inventory.mode = "failing"
    const ran = await run(base, "stock", { sku: "F" })
    inventory.mode = "serving"
    expect(refusalOf(ran)).toEqual([503, "tools_unfinished", "server_failed", null])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history?limit=100`)
    const failed = history.body.events.filter((event: any) => event.type === "tool_call_failed")
    expect(failed.map((event: any) => event.data.because)).toEqual(Array(5).fill("server_failure"))
    expect(history.body.events.filter((event: any) => event.type === "model_call_started")).toHaveLength(1)
  })

  it("cancels a run whose tool call is in flight: the call ends interrupted and the run cancelled", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    gateway.script(openAiToolCalls([{ id: "call_h", name: getStock, arguments: { sku: "SKU-H" } }]))
    const held = inventory.holdCall()
    const runId = randomUUID()
    const running = run(base, "stock", { sku: "H" }, runId)
    await held.reached
    const asked = await server.send("POST", `${base}/runs/${runId}/cancel`, { reason: "Not needed any more." })
    expect([asked.status, asked.body.run_id]).toEqual([200, runId])
    const ran = await running
    held.release()
    expect([ran.status, ran.body.reason, ran.body.kind, ran.body.detail]).toEqual([
      409,
      "cancelled",
      "requested",
      "Not needed any more."
    ])
    const history = await server.send("GET", `${base}/runs/${runId}/history`)
    const events = history.body.events
    expect(events.map((event: any) => event.type)).toEqual([
      "run_started",
      "model_call_started",
      "model_call_answered",
      "tool_call_started",
      "run_cancel_requested",
      "tool_call_failed",
      "run_rejected"
    ])
    expect(events[5].data).toMatchObject({ number: 1, because: "interrupted", jsonrpc_id: null })
    expect(events[6].data).toMatchObject({ reason: "cancelled", kind: "requested", record: { usage: { total: 28 } } })
    const again = await server.send("POST", `${base}/runs/${runId}/cancel`, {})
    expect([again.status, again.body.reason]).toEqual([409, "conflict"])
  })

  it("cancels a run whose model call is in flight: the call ends model_call_failed interrupted", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    const held = heldReply(openAiText("Too late."))
    gateway.script(held.reply)
    const runId = randomUUID()
    const running = run(base, "stock", { sku: "M" }, runId)
    await held.reached
    expect((await server.send("POST", `${base}/runs/${runId}/cancel`, {})).status).toBe(200)
    const ran = await running
    held.release()
    expect([ran.status, ran.body.reason, ran.body.kind]).toEqual([409, "cancelled", "requested"])
    expect(ran.body.detail).toMatch(/^The run was cancelled at the request of /)
    const history = await server.send("GET", `${base}/runs/${runId}/history`)
    const events = history.body.events
    expect(events.map((event: any) => event.type)).toEqual([
      "run_started",
      "model_call_started",
      "run_cancel_requested",
      "model_call_failed",
      "run_rejected"
    ])
    expect(events[3].data).toMatchObject({ number: 1, attempt: 1, because: "interrupted" })
    const retried = await run(base, "stock", { sku: "M" }, runId)
    expect([retried.status, retried.body.reason]).toEqual([409, "cancelled"])
  })

  /** Saves `name` offering `tool`, scripts one call of it then the answer `answer`, and runs it once for `sku`. */
  const ranOnce = async (
    base: string,
    name: string,
    tool: string,
    call: { readonly id: string; readonly name: string; readonly arguments: unknown },
    answer: string,
    sku: string
  ) => {
    await save(base, name, stockCheck(`[${tool}]`))
    gateway.script(openAiToolCalls([call]), openAiText(answer))
    const first = await run(base, name, { sku })
    expect([first.status, first.body.output]).toEqual([200, answer])
    return first
  }
  const stopped = (base: string, ran: string, count: number, at?: Date) => stoppedRun(server, base, ran, count, at)
  const history = async (base: string, runId: string) =>
    (await server.send("GET", `${base}/runs/${runId}/history?limit=100`)).body.events

  it("performed again after a tool call to a tool that reads was left in flight, calls it again and goes on", async () => {
    const base = await playbook()
    const call = { id: "call_a", name: getStock, arguments: { sku: "SKU-9" } }
    const first = await ranOnce(base, "stock", "inventory/get_stock_level", call, "41 on hand.", "SKU-9")
    const runId = await stopped(base, first.body.run_id, 4)
    gateway.script(openAiText("There are 41 on hand."))
    const again = await run(base, "stock", { sku: "SKU-9" }, runId)
    expect([again.status, again.body.output]).toEqual([200, "There are 41 on hand."])
    expect(inventory.calls.at(-1)).toMatchObject({
      name: "get_stock_level",
      arguments: { sku: "SKU-9" },
      meta: { "io.runledger/run_id": runId }
    })
    expect(gateway.calls().at(-1).messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: getStock, arguments: JSON.stringify({ sku: "SKU-9" }) } }
        ]
      },
      { role: "tool", tool_call_id: "call_a", content: expect.stringContaining('"on_hand":41') }
    ])
    const events = await history(base, runId)
    expect(events.map((event: any) => event.type)).toEqual([
      "run_started",
      "model_call_started",
      "model_call_answered",
      "tool_call_started",
      "attempt_resumed",
      "tool_call_failed",
      "tool_call_started",
      "tool_call_answered",
      "model_call_started",
      "model_call_answered",
      "run_succeeded"
    ])
    expect(events[4].data).toEqual({ attempt: 2, from: 4 })
    expect(events[5].data).toMatchObject({ number: 1, because: "interrupted" })
    expect(events[6].data).toMatchObject({ number: 2, call_id: "call_a", read_only: true })
    expect(events[8].data).toMatchObject({ number: 2, attempt: 1, step: "with_tools" })
    expect(events[10].data.record.usage.total).toBe(28 + 17)
    const answered = await run(base, "stock", { sku: "SKU-9" }, runId)
    expect([answered.status, answered.body.output]).toEqual([200, "There are 41 on hand."])
  })

  it("performed again between two calls of one answer, makes the call it had not made yet", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level, inventory/describe_warehouse]"))
    gateway.script(
      openAiToolCalls([
        { id: "call_a", name: getStock, arguments: { sku: "SKU-2" } },
        { id: "call_b", name: describeWarehouse, arguments: { warehouse: "east" } }
      ]),
      openAiText("Done.")
    )
    const first = await run(base, "stock", { sku: "SKU-2" })
    expect(first.status).toBe(200)
    const runId = await stopped(base, first.body.run_id, 5)
    const calls = inventory.calls.length
    gateway.script(openAiText("Done again."))
    const again = await run(base, "stock", { sku: "SKU-2" }, runId)
    expect([again.status, again.body.output]).toEqual([200, "Done again."])
    expect(inventory.calls.slice(calls).map((call) => [call.name, call.arguments])).toEqual([
      ["describe_warehouse", { warehouse: "east" }]
    ])
    expect(gateway.calls().at(-1).messages.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_a", content: expect.stringContaining('"on_hand":41') },
      { role: "tool", tool_call_id: "call_b", content: "The east warehouse." }
    ])
    const events = await history(base, runId)
    expect(events.slice(4).map((event: any) => [event.type, event.data.number ?? null])).toEqual([
      ["tool_call_answered", 1],
      ["attempt_resumed", null],
      ["tool_call_started", 2],
      ["tool_call_answered", 2],
      ["model_call_started", 2],
      ["model_call_answered", 2],
      ["run_succeeded", null]
    ])
  })

  it("performed again after its last answer, reads the answer back from the content store and asks nothing again", async () => {
    const base = await playbook()
    const call = { id: "call_l", name: getStock, arguments: { sku: "SKU-5" } }
    const first = await ranOnce(base, "stock", "inventory/get_stock_level", call, "There are 41 of SKU-5.", "SKU-5")
    // Stopped after the answer was recorded, before the run's ending.
    const runId = await stopped(base, first.body.run_id, 7)
    const [asked, sent] = [gateway.received.length, inventory.calls.length]
    const again = await run(base, "stock", { sku: "SKU-5" }, runId)
    expect([again.status, again.body.output]).toEqual([200, "There are 41 of SKU-5."])
    expect([gateway.received.length, inventory.calls.length]).toEqual([asked, sent])
    expect((await history(base, runId)).slice(-2).map((event: any) => event.type)).toEqual([
      "attempt_resumed",
      "run_succeeded"
    ])
  })

  it("performed again after a call to a tool that may act was left in flight, ends effect_unknown", async () => {
    const base = await playbook()
    const call = { id: "call_n", name: createNote, arguments: { sku: "S", text: "low" } }
    const first = await ranOnce(base, "notes", "inventory/create_note", call, "Noted.", "S")
    const runId = await stopped(base, first.body.run_id, 4)
    const [calls, modelCalls] = [inventory.calls.length, gateway.calls().length]
    const again = await run(base, "notes", { sku: "S" }, runId)
    expect([again.status, again.body.reason, again.body.kind, again.body.because]).toEqual([
      409,
      "conflict",
      "effect_unknown",
      "interrupted"
    ])
    expect(again.body.detail).toContain("inventory/create_note")
    expect([inventory.calls.length, gateway.calls().length]).toEqual([calls, modelCalls])
    const events = await history(base, runId)
    expect(events.slice(4).map((event: any) => [event.type, event.data.because ?? null])).toEqual([
      ["attempt_resumed", null],
      ["tool_call_failed", "interrupted"],
      ["run_rejected", "interrupted"]
    ])
  })

  it("performed again after a model call was left without an answer, asks it again; while it may be going on, is taken", async () => {
    const base = await playbook()
    await save(base, "stock", stockCheck("[inventory/get_stock_level]"))
    gateway.script(openAiText("Plenty."))
    const first = await run(base, "stock", { sku: "P" })
    expect(first.status).toBe(200)
    const live = await stopped(base, first.body.run_id, 2, new Date())
    const taken = await run(base, "stock", { sku: "P" }, live)
    expect([taken.status, taken.body.reason, taken.body.kind]).toEqual([409, "conflict", "taken"])
    expect(await history(base, live)).toHaveLength(2)
    const runId = await stopped(base, first.body.run_id, 2)
    gateway.script(openAiText("Plenty, asked again."))
    const again = await run(base, "stock", { sku: "P" }, runId)
    expect([again.status, again.body.output]).toEqual([200, "Plenty, asked again."])
    const events = await history(base, runId)
    expect(events.map((event: any) => [event.type, event.data.number ?? null, event.data.because ?? null])).toEqual([
      ["run_started", null, null],
      ["model_call_started", 1, null],
      ["attempt_resumed", null, null],
      ["model_call_failed", 1, "interrupted"],
      ["model_call_started", 2, null],
      ["model_call_answered", 2, null],
      ["run_succeeded", null, null]
    ])
  })
})
