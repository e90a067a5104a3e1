/**
 * bench/tools: query_connection calls to the in-process MCP fake through the runtime (its HTTP handler, in
 * process), beside the same tool called directly with the MCP client in the same run: once connected (the floor)
 * and connecting for each call (what the runtime does, ADR 0301). Prints calls/s, p50 and what the runtime adds.
 */

import { SqlClient } from "@effect/sql/SqlClient"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { toWebHandler } from "@runledger/adapter-http"
import { RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, ManagedRuntime } from "effect"
import { serveInventory } from "../../packages/tool-servers/test/fakes/inventoryHttp.js"
import { clientLayer } from "../ledger/postgresStore.js"

const calls = Number(process.env.BENCH_TOOL_CALLS ?? 1000)
const key = "bench-inventory-key"
const median = (values: Array<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Times `count` sequential calls of `one`: calls per second and the median milliseconds per call. */
const measure = async (count: number, one: (index: number) => Promise<void>) => {
  const times: Array<number> = []
  const started = performance.now()
  for (let index = 0; index < count; index++) {
    const at = performance.now()
    await one(index)
    times.push(performance.now() - at)
  }
  return { perSecond: count / ((performance.now() - started) / 1000), p50: median(times) }
}

const inventory = await serveInventory(key, "acme")
const url = `${inventory.url}/mcp?tenant=acme`
const headers = { Authorization: `Bearer ${key}` }

const connect = async () => {
  const client = new Client({ name: "bench", version: "1" })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return client
}
const direct = await connect()
const floor = await measure(calls, async (index) => {
  await direct.callTool({ name: "get_stock_level", arguments: { sku: `S-${index}` } })
})
await direct.close()
const reconnecting = await measure(Math.min(calls, 200), async (index) => {
  const client = await connect()
  await client.callTool({ name: "get_stock_level", arguments: { sku: `S-${index}` } })
  await client.close()
})

const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const schema = `bench_tools_${Math.random().toString(16).slice(2, 10)}`
const stores = [
  { name: "memory", layer: MemoryStore.layer },
  ...(process.env.BENCH_POSTGRES === "0"
    ? []
    : [
        {
          name: "postgres",
          layer: PostgresStore.layer({ url: databaseUrl, schema })
        }
      ])
]
console.log(`bench/tools: ${calls} calls of get_stock_level to the in-process MCP fake`)
console.log(`  direct, one connection:       ${floor.perSecond.toFixed(0)} calls/s, p50 ${floor.p50.toFixed(2)} ms`)
console.log(
  `  direct, a connection per call: ${reconnecting.perSecond.toFixed(0)} calls/s, p50 ${reconnecting.p50.toFixed(2)} ms`
)
for (const store of stores) {
  const runtime = ManagedRuntime.make(
    RunLedger.onStore(
      store.layer,
      {
        toolServers: [
          {
            name: "inventory",
            type: "mcp",
            url: `${inventory.url}/mcp`,
            queryParams: { tenant: "acme" },
            headers: { Authorization: "Bearer $" + "{KEY}" }
          }
        ]
      },
      undefined,
      undefined,
      ToolServersLive.layer({ KEY: key })
    )
  )
  try {
    const handler = toWebHandler(runtime)
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await handler(
        new Request(`http://127.0.0.1${path}`, {
          method,
          headers: { "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        }),
        { remoteAddress: "127.0.0.1" }
      )
      if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
      return response.json()
    }
    await send("POST", "/v1/orgs/local/playbooks", { playbook: "bench", name: "bench" })
    const through = await measure(calls, async (index) => {
      await send("POST", "/v1/orgs/local/playbooks/bench/tool-servers/inventory/tools/get_stock_level/query", {
        arguments: { sku: `S-${index}` }
      })
    })
    console.log(
      `  runtime on ${store.name.padEnd(8)}:     ${through.perSecond.toFixed(0)} calls/s, p50 ${through.p50.toFixed(2)} ms; runtime/direct ${(through.p50 / floor.p50).toFixed(1)}x, adds ${(through.p50 - floor.p50).toFixed(2)} ms p50 over one connection, ${(through.p50 - reconnecting.p50).toFixed(2)} ms over a connection per call`
    )
  } catch (error) {
    console.log(`  runtime on ${store.name}: not measured (${error instanceof Error ? error.message : error})`)
  } finally {
    await runtime.dispose()
  }
}
await inventory.close()
if (stores.length > 1) {
  await Effect.runPromise(
    Effect.flatMap(SqlClient, (sql) => Effect.ignore(sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`)).pipe(
      Effect.provide(clientLayer(databaseUrl))
    )
  )
}
