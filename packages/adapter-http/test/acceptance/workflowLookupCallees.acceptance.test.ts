import { randomUUID } from "node:crypto"
import type { RuntimeSettings } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type InventoryHttp, serveInventory } from "../../../tool-servers/test/fakes/inventoryHttp.js"
import { inventoryEntry } from "./inventoryEntry.js"
import { newPlaybook } from "./newPlaybook.js"
import { stoppedRun } from "./stoppedRun.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { catchingCall, caughtCalleeId, endedRun, saveAll } from "./workflowDocuments.js"

const inventoryKey = "inv-workflow-key-7310"

/** A lookup of one SKU's stock through the inventory server's tool `tool`. */
const stockLookup = (tool: string) => `---
description: Current stock of one SKU
call:
  server: inventory
  tool: ${tool}
  with:
    sku: '{{ input.sku }}'
    warehouse: main
    include_reservations: true
  read: /stock
input:
  schema: { type: object, required: [sku], properties: { sku: { type: string } } }
output:
  schema: { type: object, required: [on_hand, reserved], properties: { on_hand: { type: integer }, reserved: { type: integer } } }
---
`

/** Calls the lookup `name` with an item and catches the error its call raised. */
const catching = (name: string) => catchingCall("lookup", name, { input: "              input: { sku: S-1 }\n" })

onEveryStore("a workflow's lookup callees that end with their tools unsure, over HTTP", (store) => {
  let server: AcceptanceServer
  let inventory: InventoryHttp
  let base: string
  beforeAll(async () => {
    inventory = await serveInventory(inventoryKey, "acme")
    const settings: Partial<RuntimeSettings> = {
      toolServers: [inventoryEntry(inventory, { allowed: ["get_stock_level", "broken_lookup"] })]
    }
    server = await startAcceptanceServer(store(), settings, Layer.empty, {
      toolServers: ToolServersLive.layer({ INVENTORY_KEY: inventoryKey })
    })
    base = await newPlaybook(server, "wf-lookup")
    await saveAll(server, base, "lookup", [
      ["stock", stockLookup("get_stock_level")],
      ["broken", stockLookup("broken_lookup")]
    ])
    await saveAll(server, base, "workflow", [
      ["calls-stock", catching("stock")],
      ["calls-broken", catching("broken")]
    ])
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await inventory?.close()
  })

  const runWorkflow = async (name: string, runId?: string) => {
    const started = await server.send("POST", `${base}/definitions/workflow/${name}/run`, {
      ...(runId === undefined ? {} : { run_id: runId })
    })
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    return endedRun(server, base, started.body.run_id)
  }

  it("rejected unavailable, kind tools_unfinished → PROB/tools_unfinished 503 with its because", async () => {
    expect(await runWorkflow("calls-broken")).toMatchObject({
      status: "succeeded",
      output: {
        type: "https://on.auto/problems/tools_unfinished",
        status: 503,
        kind: "tools_unfinished",
        because: "tool_error"
      }
    })
  })

  it("rejected unavailable → ERR/communication 503, the callee's kind copied", async () => {
    // The server forgets its sessions; the next call opens one again, which holds no listing of its own yet.
    await inventory.forgetSessions()
    expect(await runWorkflow("calls-stock")).toMatchObject({ status: "succeeded", output: { on_hand: 41 } })
    inventory.mode = "rate_limited"
    const run = await runWorkflow("calls-stock").finally(() => {
      inventory.mode = "serving"
    })
    expect(run).toMatchObject({
      status: "succeeded",
      output: {
        type: "https://serverlessworkflow.io/spec/1.0.0/errors/communication",
        status: 503,
        kind: "tool_server_failed",
        because: "rate_limited"
      }
    })
  })

  it("rejected conflict, kind tools_called → PROB/tools_called 409: a step meeting a callee whose tools may have run", async () => {
    const looked = await server.send("POST", `${base}/definitions/lookup/stock/run`, { input: { sku: "S-1" } })
    expect(looked.status, JSON.stringify(looked.body)).toBe(200)
    const runId = randomUUID()
    const calleeId = caughtCalleeId(runId)
    // The callee's start alone, under the id the workflow's call derives: a step performed again after a crash.
    await stoppedRun(server, base, looked.body.run_id, 1, new Date(), calleeId)
    const sent = inventory.calls.length
    expect(await runWorkflow("calls-stock", runId)).toMatchObject({
      status: "succeeded",
      output: { type: "https://on.auto/problems/tools_called", status: 409, kind: "tools_called" }
    })
    expect(inventory.calls.length).toBe(sent)
  })
})
