/**
 * The runs benchmark: a trivial computation function run through the HTTP handler in-process (no socket) on the
 * memory store with 1, 2 and 4 sandbox workers and on Postgres, beside the same program in a bare QuickJS
 * context of the same build on this thread, as medians of interleaved repetitions. See bench/README.md.
 */
import { cpus, loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { median } from "../ledger/measure.js"
import { loadPostgresStore } from "../ledger/postgresStore.js"
import { fixed } from "../shared/fixed.js"
import { interleaved } from "../shared/interleaved.js"
import { textTable } from "../shared/textTable.js"
import { bareQuickJs } from "./bareQuickJs.js"
import { readRunsConfig } from "./config.js"
import { drive, quantile } from "./drive.js"
import { mainThreadCpuMillis } from "./mainThreadCpu.js"
import { inputOf, trivialScript } from "./program.js"
import { openRuntimeRow, type RuntimeRow } from "./runtimeRow.js"

const config = readRunsConfig()
const perRep = Math.ceil(config.runs / config.reps)
/** The sequential row takes a tenth of the runs: one at a time, it would take most of the benchmark's time. */
const runsOf = (row: { readonly name: string; readonly concurrency: number }) =>
  row.concurrency === 1 && row.name !== "bare QuickJS" ? Math.max(30, Math.round(perRep / 10)) : perRep
const log = (line: string) => process.stdout.write(`${line}\n`)
const targetRunsPerSecond = 1_000
const maxSandboxShare = 0.5

/** One repetition of one row. */
interface Sample {
  readonly runsPerSecond: number
  readonly p50: number
  readonly p95: number
  /** Median milliseconds in `Sandbox.run` (runtime rows). */
  readonly sandboxP50?: number
  /** Time in `Sandbox.run` over HTTP round-trip time, summed over the repetition's runs (runtime rows). */
  readonly sandboxShare?: number
  /** Runs that did not succeed, by HTTP status. */
  readonly refused: string
  /** CPU time of the whole process (main thread and workers, user + system) per run, in milliseconds. */
  readonly cpuPerRun: number
  /** Time the main thread's event loop was busy per run, in milliseconds (`performance.eventLoopUtilization`). */
  readonly mainPerRun: number
  /** CPU time of the main thread alone per run, in milliseconds (Linux only). */
  readonly mainCpuPerRun?: number
}

interface Row {
  readonly name: string
  readonly store: string
  readonly workers: string
  readonly concurrency: number
  readonly call: (index: number) => Promise<void>
  readonly runtime?: RuntimeRow
  readonly samples: Array<Sample>
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")
log(
  `runs bench: ${config.runs} runs per row in ${config.reps} interleaved reps of ${perRep} (BENCH_SCALE=${config.scale}), ` +
    `${config.concurrency} requests in flight (1 in the sequential row, which takes a tenth of the runs), node ${process.version}, ` +
    `${cpus().length} cpus, load average ${load()}`
)

const bare = await bareQuickJs(trivialScript)
const rows: Array<Row> = [
  {
    name: "bare QuickJS",
    store: "—",
    workers: "main thread",
    concurrency: 1,
    call: async (index) => void bare(inputOf(index)),
    samples: []
  }
]
const addRuntime = async (store: string, workers: number, open: () => Promise<RuntimeRow>, concurrency: number) => {
  const runtime = await open()
  rows.push({
    name: concurrency === 1 ? "HTTP run, sequential" : "HTTP run",
    store,
    workers: String(workers),
    concurrency,
    call: runtime.run,
    runtime,
    samples: []
  })
}
const memoryRow = (workers: number) => () => openRuntimeRow({ kind: "memory" }, workers)
for (const workers of config.workers) await addRuntime("memory", workers, memoryRow(workers), config.concurrency)
await addRuntime("memory", config.workers[0]!, memoryRow(config.workers[0]!), 1)
let postgresNote = config.postgres ? "" : "skipped (BENCH_POSTGRES=0)"
if (config.postgres) {
  const store = await loadPostgresStore()
  if (!store.available) postgresNote = store.reason
  else {
    const url = config.databaseUrl
    await addRuntime(
      "postgres",
      config.postgresWorkers,
      () => openRuntimeRow({ kind: "postgres", store, url }, config.postgresWorkers),
      config.concurrency
    ).catch((error: unknown) => {
      postgresNote = `the store could not be opened: ${String(error)}`
    })
  }
}

const measure = async (row: Row, count: number): Promise<Sample> => {
  if (row.runtime !== undefined) {
    row.runtime.sandboxTimes.length = 0
    row.runtime.refused.clear()
  }
  const cpu = process.cpuUsage()
  const busy = performance.eventLoopUtilization()
  const mainCpu = mainThreadCpuMillis()
  const { latencies, seconds } = await drive(count, row.concurrency, row.call)
  const used = process.cpuUsage(cpu)
  const main = performance.eventLoopUtilization(busy)
  const mainCpuAfter = mainThreadCpuMillis()
  const times = row.runtime?.sandboxTimes ?? []
  const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)
  return {
    runsPerSecond: count / seconds,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    refused: [...(row.runtime?.refused ?? [])].map(([status, count]) => `${count}×${status}`).join(" "),
    cpuPerRun: (used.user + used.system) / 1_000 / count,
    mainPerRun: main.active / count,
    ...(mainCpu === undefined || mainCpuAfter === undefined ? {} : { mainCpuPerRun: (mainCpuAfter - mainCpu) / count }),
    ...(times.length === 0 ? {} : { sandboxP50: quantile(times, 0.5), sandboxShare: sum(times) / sum(latencies) })
  }
}

log("warm-up…")
for (const row of rows) await measure(row, Math.min(perRep, 200))
for (let rep = 0; rep < config.reps; rep++) {
  for (const row of interleaved(rows, rep)) row.samples.push(await measure(row, runsOf(row)))
  log(
    `rep ${rep + 1}/${config.reps}: ${rows
      .map((row) => `${row.store}/${row.workers} ${Math.round(row.samples.at(-1)!.runsPerSecond)}/s`)
      .join("; ")}`
  )
}
for (const row of rows) await row.runtime?.close()

const of = (row: Row, pick: (sample: Sample) => number | undefined) =>
  median(row.samples.flatMap((sample) => (pick(sample) === undefined ? [] : [pick(sample)!])))
const bareP50 = of(rows[0]!, (sample) => sample.p50)
const header = [
  "row",
  "store",
  "workers",
  "in flight",
  "runs/s",
  "p50 ms",
  "p95 ms",
  "p50 / bare p50",
  "sandbox p50 ms",
  "sandbox share",
  "cpu ms/run",
  "main ms/run",
  "main cpu ms/run",
  "not 2xx (per rep)",
  "target",
  "result"
]
const cells = rows.map((row) => {
  const runsPerSecond = of(row, (sample) => sample.runsPerSecond)
  const share = of(row, (sample) => sample.sandboxShare)
  const clean = row.samples.every((sample) => sample.refused === "")
  // Throughput is judged with requests in flight; the sandbox's part of a run where nothing queues (decision 0236).
  const throughput = row.store === "memory" && row.concurrency > 1
  const part = row.store === "memory" && row.runtime !== undefined && row.concurrency === 1
  const target = throughput ? `≥ ${targetRunsPerSecond} runs/s` : part ? "share ≤ 0.50" : "—"
  const pass = throughput
    ? clean && runsPerSecond >= targetRunsPerSecond
    : part
      ? clean && share <= maxSandboxShare
      : undefined
  return [
    row.name,
    row.store,
    row.workers,
    String(row.concurrency),
    Math.round(runsPerSecond).toLocaleString("en-US"),
    fixed(
      of(row, (sample) => sample.p50),
      2
    ),
    fixed(
      of(row, (sample) => sample.p95),
      2
    ),
    row.runtime === undefined ? "1" : fixed(of(row, (sample) => sample.p50) / bareP50, 1),
    fixed(
      of(row, (sample) => sample.sandboxP50),
      2
    ),
    fixed(share, 2),
    fixed(
      of(row, (sample) => sample.cpuPerRun),
      2
    ),
    fixed(
      of(row, (sample) => sample.mainPerRun),
      2
    ),
    fixed(
      of(row, (sample) => sample.mainCpuPerRun),
      2
    ),
    row.samples.map((sample) => sample.refused || "0").join(", "),
    target,
    pass === undefined ? "—" : pass ? "PASS" : "FAIL"
  ]
})
log(`\n${textTable(header, cells)}`)
log(
  "\nMedians over the repetitions. p50/p95: latency of one run as its caller sees it (HTTP round trip in-process; " +
    "bare: one newContext…dispose). p50 / bare p50: how many bare runs one HTTP run costs. sandbox p50: time in " +
    "Sandbox.run (wait for a worker, messages, the run in the worker). sandbox share: time in Sandbox.run / " +
    "HTTP round-trip time, summed over a repetition's runs (with requests in flight it says where they queue: a " +
    "busy main thread is slow to take a worker's answer; in the sequential row nothing queues, so it is the " +
    "sandbox's part of a run, which the target judges). cpu ms/run: CPU time of the process, all threads, per run; main ms/run: time the " +
    "main thread's event loop was busy per run — on 2 cores runs/s cannot exceed 1000 / main ms/run nor " +
    "2000 / cpu ms/run; main cpu ms/run: CPU time of the main thread alone per run (Linux), which other work on " +
    "the machine does not inflate as it does main ms/run, so 1000 / main cpu ms/run bounds runs/s on a quiet " +
    "machine. not 2xx: runs refused (503 = no worker free within the 10 s deadline), counted in runs/s " +
    `and latency as answered. Load average at the end: ${load()}.`
)
if (postgresNote !== "") log(`\nPOSTGRES ROW MISSING: ${postgresNote}`)
const missed = cells.filter((line) => line.at(-1) === "FAIL")
log(
  missed.length === 0
    ? "\nall targets met"
    : `\ntargets missed: ${missed.map((line) => `${line[0]} (${line[1]}, ${line[2]} workers)`).join(", ")}`
)
if (config.strict && missed.length > 0) process.exitCode = 1
