/**
 * The answers benchmark: how soon a waiting interaction run ends after its answer — from the answer's 200 to the
 * host's `run_succeeded` recorded — on memory, on one Postgres instance, and across two instances on one database
 * (the answer taken by an instance without a host, the run ended by the other through LISTEN/NOTIFY; the sweep only
 * as backstop, every 30 s), beside the floor: a durable INSERT + NOTIFY heard by a LISTEN. Medians of interleaved
 * repetitions; ratios to the floor and to the seed's 1-second sweep. See bench/README.md.
 */
import { cpus } from "node:os"
import { median } from "../ledger/measure.js"
import { loadPostgresStore } from "../ledger/postgresStore.js"
import { quantile } from "../runs/drive.js"
import { type AnswersRow, openAnswersRow, type RowSample } from "./answersRow.js"
import { readAnswersConfig } from "./config.js"
import { openNotifyFloor } from "./notifyFloor.js"

const config = readAnswersConfig()
const log = (line: string) => process.stdout.write(`${line}\n`)
/** The seed's server sweeps waiting runs every second. */
const seedSweepMillis = 1_000

/** One repetition of one row. */
interface Sample {
  readonly p50: number
  readonly p95: number
  readonly max: number
  /** The p50 counted from the answer's 200 instead of its commit. */
  readonly after200P50: number
  readonly endedBefore200: number
  readonly refusedStarts: string
  readonly startsPerSecond: number
}

interface Row {
  readonly name: string
  readonly measure: (count: number) => Promise<RowSample>
  readonly close: () => Promise<void>
  readonly samples: Array<Sample>
}

log(
  `answers bench: ${config.requests} waiting requests per row and repetition, ${config.reps} interleaved reps ` +
    `(BENCH_SCALE=${config.scale}), starts ${config.concurrency} in flight, answers one at a time, node ` +
    `${process.version}, ${cpus().length} cpus`
)

const rows: Array<Row> = []
const addRow = (name: string, row: AnswersRow) =>
  rows.push({
    name,
    measure: (count) => row.measure(count, config.concurrency),
    close: row.close,
    samples: []
  })
addRow("memory", await openAnswersRow({ kind: "memory" }))
let postgresNote = config.postgres ? "" : "skipped (BENCH_POSTGRES=0)"
if (config.postgres) {
  const store = await loadPostgresStore()
  if (!store.available) postgresNote = store.reason
  else {
    const url = config.databaseUrl
    try {
      const floor = await openNotifyFloor(url)
      rows.push({
        name: "floor: INSERT + NOTIFY → LISTEN",
        measure: async (count) => {
          const latencies = await floor.measure(count)
          return { latencies, after200: latencies, endedBefore200: 0, refusedStarts: "", startsPerSecond: Number.NaN }
        },
        close: floor.close,
        samples: []
      })
      addRow("Postgres, one instance", await openAnswersRow({ kind: "postgres", store, url }))
      addRow("Postgres, two instances", await openAnswersRow({ kind: "two instances", store, url }))
    } catch (error) {
      postgresNote = `Postgres could not be opened: ${String(error)}`
    }
  }
}

const measure = async (row: Row, count: number): Promise<Sample> => {
  const { latencies, after200, endedBefore200, refusedStarts, startsPerSecond } = await row.measure(count)
  return {
    startsPerSecond,
    after200P50: quantile(after200, 0.5),
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    max: Math.max(...latencies),
    endedBefore200,
    refusedStarts
  }
}

for (const row of rows) {
  const sample = await measure(row, Math.min(config.requests, 100))
  log(`warm-up: ${row.name} p50 ${sample.p50.toFixed(2)} ms`)
}
for (let rep = 0; rep < config.reps; rep++) {
  const order = rep % 2 === 0 ? rows : [...rows].reverse()
  for (const row of order) row.samples.push(await measure(row, config.requests))
  log(
    `rep ${rep + 1}/${config.reps}: ${rows.map((row) => `${row.name} p50 ${row.samples.at(-1)!.p50.toFixed(2)} ms`).join("; ")}`
  )
}
for (const row of rows) await row.close()

const of = (row: Row, pick: (sample: Sample) => number) => median(row.samples.map(pick))
const floorRow = rows.find((row) => row.name.startsWith("floor"))
const floorP50 = floorRow === undefined ? Number.NaN : of(floorRow, (sample) => sample.p50)
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "—")
const header = [
  "row",
  "p50 ms",
  "p95 ms",
  "max ms",
  "p50 / floor p50",
  "seed sweep p50 / p50",
  "p50 from the 200 ms",
  "ended before 200",
  "starts/s",
  "starts refused",
  "target",
  "result"
]
const cells = rows.map((row) => {
  const p50 = of(row, (sample) => sample.p50)
  const p95 = of(row, (sample) => sample.p95)
  const isFloor = row === floorRow
  const targets: Array<[string, boolean]> = []
  if (row.name.startsWith("Postgres")) targets.push([`p50 ≤ 2× floor`, p50 <= 2 * floorP50])
  if (row.name.endsWith("two instances")) targets.push(["p95 ≤ 20 ms", p95 <= 20])
  const clean = row.samples.every((sample) => sample.refusedStarts === "")
  return [
    row.name,
    fixed(p50, 2),
    fixed(p95, 2),
    fixed(median(row.samples.map((sample) => sample.max)), 1),
    isFloor ? "1" : fixed(p50 / floorP50, 1),
    // The seed picks an answer up at its next sweep: half a sweep on average.
    isFloor ? "—" : fixed(seedSweepMillis / 2 / Math.max(p50, 0.001), 0),
    isFloor
      ? "—"
      : fixed(
          of(row, (sample) => sample.after200P50),
          2
        ),
    isFloor ? "—" : row.samples.map((sample) => String(sample.endedBefore200)).join(", "),
    isFloor
      ? "—"
      : fixed(
          of(row, (sample) => sample.startsPerSecond),
          0
        ),
    isFloor ? "—" : row.samples.map((sample) => sample.refusedStarts || "0").join(", "),
    targets.length === 0 ? "—" : targets.map(([words]) => words).join(", "),
    targets.length === 0 ? "—" : clean && targets.every(([, met]) => met) ? "PASS" : "FAIL"
  ]
})
const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)))
const format = (line: ReadonlyArray<string>) => line.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")
log(`\n${[format(header), widths.map((width) => "-".repeat(width)).join("-|-"), ...cells.map(format)].join("\n")}`)
log(
  "\nMedians over the repetitions of each repetition's p50, p95 and max. A row's latency: from the append of " +
    "request_answered returning (committed; the 200 follows it) to the host's append of run_succeeded returning, " +
    "one answer at a time through the in-process HTTP handler; p50 from the 200: the same counted from the " +
    "answer's response reaching the caller (0 when the run had ended already). Floor: one " +
    "autocommit statement inserting a row and notifying, until a LISTENing connection hears it. Seed sweep p50 / " +
    "p50: how many times sooner than the seed's 1-second sweep (500 ms on average) the answer is taken. Ended " +
    "before 200: runs the host ended before the answer's response reached the caller, per rep. Starts/s: how fast " +
    "the repetition's requests were opened, BENCH_CONCURRENCY in flight in one playbook (they claim its request " +
    "slots one at a time, ADR 0190); starts refused: starts answered other than 200, per rep."
)
if (postgresNote !== "") log(`\nPOSTGRES ROWS MISSING: ${postgresNote}`)
const missed = cells.filter((line) => line.at(-1) === "FAIL")
log(missed.length === 0 ? "\nall targets met" : `\ntargets missed: ${missed.map((line) => line[0]).join(", ")}`)
if (config.strict && (missed.length > 0 || postgresNote !== "")) process.exitCode = 1
