import { Ledger, type RuntimeSettings } from "@runledger/core"
import { HttpModelProvider } from "@runledger/model-providers"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { afterAll, beforeAll, expect, it, vi } from "vitest"
import {
  openAiText,
  openAiToolCalls,
  type ScriptedModel,
  startScriptedModel
} from "../../../model-providers/test/scriptedModel.js"
import { type InventoryHttp, serveInventory } from "../../../tool-servers/test/fakes/inventoryHttp.js"
import { inventoryEntry } from "./inventoryEntry.js"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** The configured secrets: the tool server's `${INVENTORY_KEY}` and the gateway's key. */
const inventoryKey = "inv-scrub-key-6093"
const gatewayKey = "sk-scrub-gateway-2208"
const secrets = [inventoryKey, gatewayKey]

/** A reasoning function whose tool answers with the key the server was given. */
const whoAsks = `---
model: gateway/scripted-1
tools: [inventory/whoami]
---
Which key does the inventory server have?
`

/** A lookup of the same tool, its whole answer the output. */
const whoLooks = `---
call:
  server: inventory
  tool: whoami
output:
  schema: { type: string }
---
`

onEveryStore("secrets scrubbed from a run's answers, facts and log lines", (store) => {
  let server: AcceptanceServer
  let gateway: ScriptedModel
  let inventory: InventoryHttp
  /** Every line the runtime logged, at every level. */
  const lines: Array<string> = []
  /** Every answer the runtime gave the test: status, headers and body. */
  const answers: Array<string> = []
  beforeAll(async () => {
    gateway = await startScriptedModel("openai")
    inventory = await serveInventory(inventoryKey, "acme")
    const settings: Partial<RuntimeSettings> = {
      models: { providers: [{ name: "gateway", api: "openai", baseUrl: gateway.baseUrl, apiKey: gatewayKey }] },
      toolServers: [inventoryEntry(inventory, { allowed: ["whoami"] })]
    }
    const logged = Layer.merge(
      Logger.replace(
        Logger.defaultLogger,
        Logger.map(Logger.logfmtLogger, (line) => {
          lines.push(line)
        })
      ),
      Logger.minimumLogLevel(LogLevel.All)
    )
    server = await startAcceptanceServer(store(), settings, logged, {
      modelProvider: HttpModelProvider.layer,
      toolServers: ToolServersLive.layer({ INVENTORY_KEY: inventoryKey })
    })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await gateway?.close()
    await inventory?.close()
  })

  /** Sends a request and keeps its whole answer. */
  const send = async (method: string, path: string, body?: unknown) => {
    const answer = await server.send(method, path, body)
    answers.push(JSON.stringify([answer.status, [...answer.headers.entries()], answer.body]))
    return answer
  }

  it("shows no configured secret in any answer, fact or log line of runs whose tool answers with one", async () => {
    const console = [vi.spyOn(globalThis.console, "error"), vi.spyOn(globalThis.console, "warn")]
    const base = await newPlaybook(server, "sc")
    expect(
      (await send("POST", `${base}/definitions/reasoning`, { name: "who", source: whoAsks, diagram: "none" })).status
    ).toBe(201)
    expect(
      (await send("POST", `${base}/definitions/lookup`, { name: "look", source: whoLooks, diagram: "none" })).status
    ).toBe(201)
    gateway.script(
      openAiToolCalls([{ id: "call_w", name: "mcp__inventory__whoami", arguments: {} }]),
      openAiText("The server was given a key."),
      openAiToolCalls([{ id: "call_v", name: "mcp__inventory__whoami", arguments: {} }]),
      { status: 401, body: { error: { message: `invalid key ${gatewayKey}` } } }
    )
    const asked = await send("POST", `${base}/definitions/reasoning/who/run`, { input: {} })
    expect([asked.status, asked.body.output]).toEqual([200, "The server was given a key."])
    const refused = await send("POST", `${base}/definitions/reasoning/who/run`, { input: {} })
    expect([refused.status, refused.body.kind]).toEqual([503, "tools_unfinished"])
    const looked = await send("POST", `${base}/definitions/lookup/look/run`, { input: {} })
    expect([looked.status, looked.body.output]).toEqual([200, "You gave the key [scrubbed]."])
    const byHand = await send("POST", `${base}/tool-servers/inventory/tools/whoami/query`, {})
    expect(byHand.body.text).toBe("You gave the key [scrubbed].")
    for (const run of [asked, refused, looked]) {
      await send("GET", `${base}/runs/${run.body.run_id}`)
      const history = await send("GET", `${base}/runs/${run.body.run_id}/history?limit=100`)
      for (const event of history.body.events) await send("GET", `${base}/events/${event.id}`)
    }
    await send("GET", `${base}/events?limit=100`)
    await send("GET", `${base}/tool-servers/search`)
    const facts = await server.runtime.runPromise(
      Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 1_000_000 }))
    )
    const printed = console.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(" ")))
    for (const spy of console) spy.mockRestore()
    // The secrets were in play: the tool answered with its key, the provider's refusal named its own, and both were
    // logged and recorded scrubbed.
    expect(inventory.calls.filter((call) => call.name === "whoami")).toHaveLength(4)
    expect(answers.some((answer) => answer.includes("You gave the key [scrubbed]."))).toBe(true)
    expect(lines.some((line) => line.includes("credentials_rejected 401: invalid key [redacted]"))).toBe(true)
    const sentToModel = JSON.stringify(gateway.calls())
    expect(sentToModel).toContain("You gave the key [scrubbed].")
    for (const [what, texts] of [
      ["answers", answers],
      ["facts", facts.map((fact) => JSON.stringify(fact))],
      ["log lines", [...lines, ...printed]],
      ["what the model was sent", [sentToModel]]
    ] as const)
      for (const secret of secrets)
        expect(
          texts.filter((text) => text.includes(secret)),
          `${what} showing ${secret}`
        ).toEqual([])
  })
})
