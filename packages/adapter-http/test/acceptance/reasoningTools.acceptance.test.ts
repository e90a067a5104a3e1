import type { RuntimeSettings } from "@runledger/core"
import { HttpModelProvider } from "@runledger/model-providers"
import { ToolServersLive } from "@runledger/tool-servers"
import { Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  openAiText,
  openAiToolCalls,
  type ScriptedModel,
  startScriptedModel
} from "../../../model-providers/test/scriptedModel.js"
import { type InventoryHttp, serveInventory } from "../../../tool-servers/test/fakes/inventoryHttp.js"
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
  let count = 0
  beforeAll(async () => {
    gateway = await startScriptedModel("openai")
    inventory = await serveInventory(inventoryKey, "acme")
    const settings: Partial<RuntimeSettings> = {
      models: { providers: [{ name: "gateway", api: "openai", baseUrl: gateway.baseUrl }] },
      toolServers: [
        {
          name: "inventory",
          type: "mcp",
          url: `${inventory.url}/mcp`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
          headers: { Authorization: "Bearer ${INVENTORY_KEY}" },
          queryParams: { tenant: "acme" },
          allowed: ["get_stock_level", "describe_warehouse", "create_note", "no_such_tool"],
          marks: { describe_warehouse: "reads" }
        }
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

  const playbook = async () => {
    const id = `rt-${++count}-${Math.random().toString(36).slice(2, 8)}`
    expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
    return `/v1/orgs/local/playbooks/${id}`
  }
  const save = async (base: string, name: string, source: string) => {
    const saved = await server.send("POST", `${base}/definitions/reasoning`, { name, source, diagram: "none" })
    expect(saved.status).toBe(201)
  }
  const run = (base: string, name: string, input: unknown) =>
    server.send("POST", `${base}/definitions/reasoning/${name}/run`, { input })

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
    expect(events[2].data.tool_calls).toEqual([
      { call_id: "call_a", tool: getStock },
      { call_id: "call_b", tool: describeWarehouse }
    ])
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
    const one = await server.send("GET", `${base}/events/${events[4].id}`)
    expect(one.body.data.result_sha256).toBe(events[4].data.result_sha256)
    expect(JSON.stringify(history.body)).not.toContain(inventoryKey)
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
})
