import type { RuntimeSettings } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type InventoryHttp, serveInventory } from "../../../tool-servers/test/fakes/inventoryHttp.js"
import { type ChatServer, serveChat } from "./chatServer.js"
import { inventoryEntry } from "./inventoryEntry.js"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

const inventoryKey = "inv-call-key-7310"

/** An interaction that acts through the chat server's tool, once, and answers the message's id it read back. */
const post = (options: { tool?: string; server?: string; read?: string; schema?: string } = {}) => `---
description: Post the order's note in its room
call:
  server: ${options.server ?? "chat"}
  tool: ${options.tool ?? "send_message"}
  with:
    room: '{{ input.room }}'
    body: 'Order {{ input.order }} is ready'
    priority: 2
  read: ${options.read ?? "/message_id"}
input:
  schema:
    type: object
    required: [room, order]
    properties:
      room: { type: string }
      order: { type: string }
output:
  schema: ${options.schema ?? "{ type: string }"}
---
`

/** A question delivered through the chat server whose `deliver.with` holds more than 16 KiB of fixed text. */
const heavyQuestion = `---
to: '{{ input.room }}'
expires: P1D
deliver:
  server: chat
  tool: send_message
  with:
    room: '{{ now }}'
    body: '${"x".repeat(16_400)}'
output:
  schema: { type: object }
---
Ready?
`

onEveryStore("interaction functions that call a tool that acts", (store) => {
  let server: AcceptanceServer
  let chat: ChatServer
  let inventory: InventoryHttp
  beforeAll(async () => {
    chat = await serveChat()
    inventory = await serveInventory(inventoryKey, "acme")
    const settings: Partial<RuntimeSettings> = {
      toolServers: [
        { name: "chat", type: "mcp", url: `${chat.url}/mcp`, allowed: ["send_message"] },
        inventoryEntry(inventory),
        { name: "notes", type: "mcp", url: "http://127.0.0.1:9/mcp", connectTimeoutMs: 2_000 }
      ]
    }
    server = await startAcceptanceServer(store(), settings, Layer.empty, {
      toolServers: ToolServersLive.layer({ INVENTORY_KEY: inventoryKey })
    })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await chat?.close()
    await inventory?.close()
  })

  const playbook = () => newPlaybook(server, "ic")
  const save = (base: string, name: string, source: string) =>
    server.send("POST", `${base}/definitions/interaction`, { name, source, diagram: "none" })
  const run = (base: string, name: string, input: unknown, runId?: string) =>
    server.send("POST", `${base}/definitions/interaction/${name}/run`, {
      input,
      ...(runId === undefined ? {} : { run_id: runId })
    })
  const typesOf = async (base: string, runId: string) =>
    (await server.send("GET", `${base}/runs/${runId}/history`)).body.events.map((event: any) => event)

  it("calls the tool once within the request, records the call after the start, and answers the value at read", async () => {
    chat.mode = "serving"
    const base = await playbook()
    const saved = await save(base, "post", post())
    expect(saved.status).toBe(201)
    const ran = await run(base, "post", { room: "orders", order: "A-17" })
    expect([ran.status, ran.body.status]).toEqual([200, "succeeded"])
    const runId = ran.body.run_id
    const sent = chat.calls.filter((call) => call.meta["io.runledger/run_id"] === runId)
    expect(sent).toEqual([
      {
        tool: "send_message",
        arguments: { room: "orders", body: "Order A-17 is ready", priority: 2 },
        meta: { "io.runledger/run_id": runId }
      }
    ])
    expect(ran.body.output).toBe(`m-${chat.calls.indexOf(sent[0]!) + 1}`)
    const events = await typesOf(base, runId)
    expect(events.map((event: any) => event.type)).toEqual([
      "run_started",
      "tool_call_started",
      "tool_call_answered",
      "run_succeeded"
    ])
    expect(events[0].data).toMatchObject({ calls_tools: true, finishes_later: false })
    expect(events[1].data).toMatchObject({ number: 1, call_id: runId, server: "chat", tool: "send_message" })
    expect(events[1].data.read_only).toBeUndefined()
    expect(events[3].data.record).toMatchObject({
      server: "chat",
      tool: "send_message",
      read: "/message_id",
      mark: "unmarked"
    })
    const again = await run(base, "post", { room: "orders", order: "A-17" }, runId)
    expect([again.status, again.body.output]).toEqual([200, ran.body.output])
    expect(chat.calls.filter((call) => call.meta["io.runledger/run_id"] === runId)).toHaveLength(1)
  })

  it("refuses at save, at the line of call, a tool that reads, one not allowed and a server not set up", async () => {
    const base = await playbook()
    for (const [source, words] of [
      [
        post({ server: "inventory", tool: "get_stock_level" }),
        "marked reads .*read through a tool with a lookup function"
      ],
      [post({ tool: "delete_room" }), "does not allow the tool chat/delete_room"],
      [post({ server: "billing" }), "not set up for this playbook"]
    ] as const) {
      const saved = await save(base, "bad", source)
      expect([saved.status, saved.body.errors?.[0]?.pointer, saved.body.errors?.[0]?.detail]).toEqual([
        422,
        "/source",
        expect.stringMatching(new RegExp(`^Line 3, column 1: at /call: .*${words}`))
      ])
    }
    const unreachable = await save(base, "down", post({ server: "notes" }))
    expect([unreachable.status, unreachable.body.kind, unreachable.body.detail]).toEqual([
      503,
      "tool_server_failed",
      expect.stringContaining("notes")
    ])
    expect((await server.send("GET", `${base}/definitions/interaction/bad`)).status).toBe(404)
  })

  it("ends a call its tool answered with an error effect_unknown; the same run id then answers tools_called", async () => {
    const base = await playbook()
    expect((await save(base, "post", post())).status).toBe(201)
    chat.mode = "tool_error"
    const ran = await run(base, "post", { room: "archive", order: "B-2" })
    chat.mode = "serving"
    expect([ran.status, ran.body.reason, ran.body.kind, ran.body.because]).toEqual([
      409,
      "conflict",
      "effect_unknown",
      "tool_error"
    ])
    const again = await run(base, "post", { room: "archive", order: "B-2" }, ran.body.run_id)
    expect([again.status, again.body.kind, again.body.because]).toEqual([409, "tools_called", undefined])
    expect(chat.calls.filter((call) => call.meta["io.runledger/run_id"] === ran.body.run_id)).toHaveLength(1)
  })

  it("ends unworkable a value absent at read or outside the output schema, and refuses input outside its schema", async () => {
    chat.mode = "serving"
    const base = await playbook()
    expect((await save(base, "absent", post({ read: "/thread" }))).status).toBe(201)
    expect((await save(base, "number", post({ schema: "{ type: integer }" }))).status).toBe(201)
    for (const name of ["absent", "number"]) {
      const ran = await run(base, name, { room: "orders", order: "C-3" })
      expect([ran.status, ran.body.reason, ran.body.kind]).toEqual([409, "conflict", "unworkable"])
    }
    const sent = chat.calls.length
    const refused = await run(base, "absent", { room: "orders" })
    expect([refused.status, refused.body.reason]).toEqual([422, "invalid_input"])
    expect(chat.calls.length).toBe(sent)
  })

  it("refuses at save, under /source at deliver.with, arguments that read no input and hold more than 16 KiB", async () => {
    const base = await playbook()
    const saved = await save(base, "heavy", heavyQuestion)
    expect([saved.status, saved.body.reason, saved.body.errors]).toEqual([
      422,
      "invalid_input",
      [
        {
          pointer: "/source",
          detail: expect.stringMatching(
            /^Line 8, column \d+: at \/deliver\/with: the arguments render 16,4\d\d bytes as JSON, and a call's arguments hold at most 16 KiB \(16,384 bytes\)/
          )
        }
      ]
    ])
  })
})
