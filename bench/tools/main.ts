/**
 * bench/tools: query_connection calls to the in-process MCP fake through the runtime (its HTTP handler, in
 * process), interleaved call by call with the same tool called directly by the MCP client on a session of its own,
 * so both are timed under the same load. The runtime holds its session and listing between calls (ADR 0306). Per
 * store it prints calls/s, p50, the ratio runtime/direct and what the runtime adds at p50, and the main thread's
 * CPU per call and what the runtime adds to it (Linux; unlike p50, not inflated by waiting for a core on a loaded
 * machine); once, what the tool servers' port alone adds (its call on a held session), so the rest is the
 * dispatcher and the recording.
 */

import { loadavg } from "node:os"
import { SqlClient } from "@effect/sql/SqlClient"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { toWebHandler } from "@runledger/adapter-http"
import { RunLedger, ToolServers } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, ManagedRuntime } from "effect"
import { serveInventory } from "../../packages/tool-servers/test/fakes/inventoryHttp.js"
import { clientLayer } from "../ledger/postgresStore.js"
import { positiveSetting } from "../shared/positiveSetting.js"
import { mainThreadOnCpuMillis } from "./threadCpu.js"

const calls = positiveSetting("BENCH_TOOL_CALLS", process.env.BENCH_TOOL_CALLS, 1000)
const key = "bench-inventory-key"
const median = (values: Array<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const load = () =>
  loadavg()
    .map((average) => average.toFixed(2))
    .join(" ")

/** One way of calling the tool, the milliseconds each of its calls took, and the main thread's CPU they used. */
interface Timed {
  readonly one: (index: number) => Promise<unknown>
  readonly times: Array<number>
  /** Milliseconds the main thread spent on a core during the calls (Linux), summed. */
  cpu?: number
}

/** Times `count` rounds, each calling every way once in turn: the ways share the machine's load call by call. */
const interleave = async (count: number, ways: ReadonlyArray<Timed>) => {
  for (let index = 0; index < count; index++)
    for (const way of ways) {
      const cpu = mainThreadOnCpuMillis()
      const at = performance.now()
      await way.one(index)
      way.times.push(performance.now() - at)
      const after = mainThreadOnCpuMillis()
      if (cpu !== undefined && after !== undefined) way.cpu = (way.cpu ?? 0) + after - cpu
    }
}

/**
 * Calls per second (of the way's own time), the median milliseconds per call, and the main thread's CPU
 * milliseconds per call (the in-process MCP fake's included, as in every way, so differences are the runtime's).
 */
const figures = (way: Timed) => ({
  perSecond: way.times.length / (way.times.reduce((sum, time) => sum + time, 0) / 1000),
  p50: median(way.times),
  cpu: way.cpu === undefined ? undefined : way.cpu / way.times.length
})
const cpuWords = (way: ReturnType<typeof figures>, base: ReturnType<typeof figures>) =>
  way.cpu === undefined || base.cpu === undefined
    ? ""
    : `; main-thread CPU ${way.cpu.toFixed(2)} ms/call, adds ${(way.cpu - base.cpu).toFixed(2)} ms`

const inventory = await serveInventory(key, "acme")
const direct = new Client({ name: "bench", version: "1" })
await direct.connect(
  new StreamableHTTPClientTransport(new URL(`${inventory.url}/mcp?tenant=acme`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } }
  })
)

const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const schema = `bench_tools_${Math.random().toString(16).slice(2, 10)}`
const stores = [
  { name: "memory", layer: MemoryStore.layer },
  ...(process.env.BENCH_POSTGRES === "0"
    ? []
    : [{ name: "postgres", layer: PostgresStore.layer({ url: databaseUrl, schema }) }])
]
const settings = {
  toolServers: [
    {
      name: "inventory",
      type: "mcp" as const,
      url: `${inventory.url}/mcp`,
      queryParams: { tenant: "acme" },
      headers: { Authorization: "Bearer $" + "{KEY}" }
    }
  ]
}
console.log(`bench/tools: ${calls} calls of get_stock_level to the in-process MCP fake; load ${load()}`)
for (const store of stores) {
  const runtime = ManagedRuntime.make(
    RunLedger.onStore(store.layer, settings, undefined, undefined, ToolServersLive.layer({ KEY: key }))
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
    const floor: Timed = {
      one: (index) => direct.callTool({ name: "get_stock_level", arguments: { sku: `S-${index}` } }),
      times: []
    }
    const through: Timed = {
      one: (index) =>
        send("POST", "/v1/orgs/local/playbooks/bench/tool-servers/inventory/tools/get_stock_level/query", {
          arguments: { sku: `S-${index}` }
        }),
      times: []
    }
    const port: Timed = {
      one: (index) =>
        runtime.runPromise(
          Effect.flatMap(ToolServers, (tools) =>
            tools.call({ server: "inventory", tool: "get_stock_level", arguments: { sku: `S-${index}` } })
          )
        ),
      times: []
    }
    // Unrecorded warm-up: the session opened and its listing kept, the code paths compiled.
    await interleave(
      Math.min(50, calls),
      [floor, through, port].map((way) => ({ one: way.one, times: [] }))
    )
    await interleave(calls, store.name === "memory" ? [floor, through, port] : [floor, through])
    const base = figures(floor)
    const runtimeFigures = figures(through)
    console.log(
      `  direct, one session:    ${base.perSecond.toFixed(0)} calls/s, p50 ${base.p50.toFixed(2)} ms (beside ${store.name})${base.cpu === undefined ? "" : `; main-thread CPU ${base.cpu.toFixed(2)} ms/call`}`
    )
    console.log(
      `  runtime on ${store.name.padEnd(9)}:   ${runtimeFigures.perSecond.toFixed(0)} calls/s, p50 ${runtimeFigures.p50.toFixed(2)} ms; runtime/direct ${(runtimeFigures.p50 / base.p50).toFixed(2)}x, adds ${(runtimeFigures.p50 - base.p50).toFixed(2)} ms p50${cpuWords(runtimeFigures, base)}`
    )
    if (port.times.length > 0) {
      const portFigures = figures(port)
      console.log(
        `  the port alone:         p50 ${portFigures.p50.toFixed(2)} ms, adds ${(portFigures.p50 - base.p50).toFixed(2)} ms p50 (its call on the held session)${cpuWords(portFigures, base)}`
      )
    }
  } catch (error) {
    console.log(`  runtime on ${store.name}: not measured (${error instanceof Error ? error.message : error})`)
  } finally {
    await runtime.dispose()
  }
}
console.log(`  load at the end ${load()}`)
await direct.close()
await inventory.close()
if (stores.length > 1) {
  await Effect.runPromise(
    Effect.flatMap(SqlClient, (sql) => Effect.ignore(sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`)).pipe(
      Effect.provide(clientLayer(databaseUrl))
    )
  )
}
