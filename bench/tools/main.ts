/**
 * bench/tools: query_connection calls to the in-process MCP fake through the runtime (its HTTP handler, in
 * process), interleaved call by call with the same tool called directly by the MCP client on a session of its own,
 * so both are timed under the same load. The runtime holds its session and listing between calls (ADR 0306). Each
 * repetition measures every store in turn (reversed on odd repetitions); the figures are medians over the
 * repetitions: calls/s and p50 of both ways, the ratio runtime/direct, what the runtime adds at p50, and the main
 * thread's CPU per call it adds (Linux; unlike p50, not inflated by waiting for a core on a loaded machine). On
 * memory it also times what the tool servers' port alone adds (its call on a held session), so the rest is the
 * dispatcher and the recording. See bench/README.md.
 */

import { loadavg } from "node:os"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { toWebHandler } from "@runledger/adapter-http"
import { RunLedger, ToolServers } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, ManagedRuntime } from "effect"
import { fetchWithOwnSignal } from "../../packages/tool-servers/src/HttpProbe.js"
import { serveInventory } from "../../packages/tool-servers/test/fakes/inventoryHttp.js"
import { readCommonSettings } from "../shared/commonSettings.js"
import { dropSchema } from "../shared/dropSchema.js"
import { fixed } from "../shared/fixed.js"
import { interleaved } from "../shared/interleaved.js"
import { textTable } from "../shared/textTable.js"
import { type Figures, figures, interleave, median, type Timed, timed } from "./timedWays.js"

const config = readCommonSettings(process.env)
/** Calls per way, store and repetition: 1,000 × BENCH_SCALE. */
const calls = Math.max(50, Math.round(1_000 * config.scale))
/** The runtime's added p50 on the memory store the issue sets as its target. */
const memoryTargetMillis = 2
const key = "bench-inventory-key"
const load = () =>
  loadavg()
    .map((average) => average.toFixed(2))
    .join(" ")

/** What one store's repetition measured: the direct calls beside it, the runtime's, and the port's alone. */
interface Sample {
  readonly direct: Figures
  readonly runtime: Figures
  readonly port?: Figures
}

/** One store's runtime, how to call the tool through it, and its samples. */
interface StoreRow {
  readonly name: string
  readonly through: (index: number) => Promise<unknown>
  readonly port?: (index: number) => Promise<unknown>
  readonly samples: Array<Sample>
  readonly close: () => Promise<void>
}

const inventory = await serveInventory(key, "acme")
const client = new Client({ name: "bench", version: "1" })
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${inventory.url}/mcp?tenant=acme`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    // As the runtime's sessions send (HttpProbe.ts): a signal per request, so the session's gathers no listeners.
    fetch: fetchWithOwnSignal
  })
)
const direct = (index: number) => client.callTool({ name: "get_stock_level", arguments: { sku: `S-${index}` } })

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

/** Opens a runtime on a store with the inventory server, makes the playbook `bench`, and answers its row. */
const openRow = async (
  name: string,
  layer: Parameters<typeof RunLedger.onStore>[0],
  timesPort: boolean
): Promise<StoreRow> => {
  const runtime = ManagedRuntime.make(
    RunLedger.onStore(layer, settings, undefined, undefined, ToolServersLive.layer({ KEY: key }))
  )
  const handler = toWebHandler(runtime)
  const send = async (method: string, path: string, body: unknown) => {
    const response = await handler(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      }),
      { remoteAddress: "127.0.0.1" }
    )
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
    return response.json()
  }
  await send("POST", "/v1/orgs/local/playbooks", { playbook: "bench", name: "bench" })
  const port = (index: number) =>
    runtime.runPromise(
      Effect.flatMap(ToolServers, (tools) =>
        tools.call({ server: "inventory", tool: "get_stock_level", arguments: { sku: `S-${index}` } })
      )
    )
  return {
    name,
    through: (index) =>
      send("POST", "/v1/orgs/local/playbooks/bench/tool-servers/inventory/tools/get_stock_level/query", {
        arguments: { sku: `S-${index}` }
      }),
    ...(timesPort ? { port } : {}),
    samples: [],
    close: () => runtime.dispose()
  }
}

/** One repetition of a row: `count` rounds of the direct call, the runtime's and the port's, interleaved. */
const measure = async (row: StoreRow, count: number): Promise<Sample> => {
  const ways: Array<Timed> = [timed(direct), timed(row.through), ...(row.port ? [timed(row.port)] : [])]
  await interleave(count, ways)
  const [base, through, port] = ways.map(figures)
  return { direct: base!, runtime: through!, ...(port === undefined ? {} : { port }) }
}

const schema = `bench_tools_${Math.random().toString(16).slice(2, 10)}`
const rows: Array<StoreRow> = [await openRow("memory", MemoryStore.layer, true)]
let postgresNote = ""
if (config.postgres) {
  try {
    rows.push(await openRow("postgres", PostgresStore.layer({ url: config.databaseUrl, schema }), false))
  } catch (error) {
    postgresNote = `Postgres was not measured: ${error instanceof Error ? error.message : String(error)}`
  }
}

console.log(
  `bench/tools: ${calls} calls of get_stock_level per way, store and repetition to the in-process MCP fake, ` +
    `${config.reps} interleaved repetitions; load ${load()}`
)
// Unrecorded warm-up: each runtime's session opened and its listing kept, the code paths compiled.
for (const row of rows) await measure(row, Math.min(50, calls))
for (let rep = 0; rep < config.reps; rep++) {
  for (const row of interleaved(rows, rep)) row.samples.push(await measure(row, calls))
  console.log(
    `rep ${rep + 1}/${config.reps}: ${rows
      .map((row) => {
        const last = row.samples.at(-1)!
        return `${row.name} runtime p50 ${last.runtime.p50.toFixed(2)} ms, direct ${last.direct.p50.toFixed(2)} ms`
      })
      .join("; ")}; load ${load()}`
  )
}
for (const row of rows) await row.close()
await client.close()
await inventory.close()
if (rows.some((row) => row.name === "postgres")) await dropSchema(config.databaseUrl, schema)

const of = (row: StoreRow, pick: (sample: Sample) => number) => median(row.samples.map(pick))
let missed = false
const cells = rows.map((row) => {
  const added = of(row, (sample) => sample.runtime.p50 - sample.direct.p50)
  const target = row.name === "memory" ? `adds ≤ ${memoryTargetMillis} ms p50` : "— (for information)"
  const met = added <= memoryTargetMillis
  if (row.name === "memory" && !met) missed = true
  return [
    row.name,
    fixed(
      of(row, (sample) => sample.direct.perSecond),
      0
    ),
    fixed(
      of(row, (sample) => sample.direct.p50),
      2
    ),
    fixed(
      of(row, (sample) => sample.runtime.perSecond),
      0
    ),
    fixed(
      of(row, (sample) => sample.runtime.p50),
      2
    ),
    fixed(
      of(row, (sample) => sample.runtime.p50 / sample.direct.p50),
      2
    ),
    fixed(added, 2),
    fixed(
      of(row, (sample) => sample.runtime.cpu - sample.direct.cpu),
      2
    ),
    target,
    row.name === "memory" ? (met ? "PASS" : "FAIL") : "—"
  ]
})
const header = [
  "store",
  "direct calls/s",
  "direct p50 ms",
  "runtime calls/s",
  "runtime p50 ms",
  "runtime/direct p50",
  "adds p50 ms",
  "adds CPU ms/call",
  "target",
  "result"
]
console.log(`\n${textTable(header, cells, new Set([1, 2, 3, 4, 5, 6, 7]))}`)
const memory = rows.find((row) => row.port !== undefined)
if (memory !== undefined)
  console.log(
    `\nThe tool servers' port alone (its call on the held session, memory): p50 ${fixed(
      of(memory, (sample) => sample.port!.p50),
      2
    )} ms, adds ${fixed(
      of(memory, (sample) => sample.port!.p50 - sample.direct.p50),
      2
    )} ms p50 to the direct call; the rest of what the runtime adds is the dispatcher and the recording.`
  )
console.log(
  "\nMedians over the repetitions of each repetition's figures. direct: the MCP client's own session to the fake, " +
    "timed call by call beside the runtime's query_connection (the HTTP handler in process), so both share the " +
    "machine's load. adds p50: the runtime's p50 less the direct p50 of the same repetition; adds CPU: the same of " +
    "the main thread's on-core time per call (Linux)."
)
if (postgresNote !== "") console.log(postgresNote)
console.log(`load at the end ${load()}`)
if (config.strict && (missed || postgresNote !== "")) process.exitCode = 1
