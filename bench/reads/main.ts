/**
 * The reads benchmark (issue 7): pages of list_runs, list_playbook_events, list_activity and get_playbook_analytics
 * in a playbook of 100,000 runs (1,000,000 facts) beside one of 1,000 runs, and the release of a held
 * list_playbook_changes by a run, on the memory and the Postgres stores, through the HTTP handler in-process, as
 * medians of interleaved repetitions with the ratio large/small. See bench/README.md.
 */
import { mkdir, writeFile } from "node:fs/promises"
import { cpus } from "node:os"
import { median } from "../ledger/measure.js"
import { loadPostgresStore } from "../ledger/postgresStore.js"
import { textTable } from "../shared/textTable.js"
import { readReadsConfig } from "./config.js"
import { type Playbook, recordRuns } from "./dataset.js"
import { type ReadRow, readRows } from "./readRows.js"
import { openReadsRuntime, type ReadsStore } from "./readsRuntime.js"

const config = readReadsConfig()
const log = (line: string) => process.stdout.write(`${line}\n`)
const small: Playbook = { org: "small", id: "bench" }
const large: Playbook = { org: "large", id: "bench" }
/** A page must cost about the same in both playbooks; a held request must be released within 100 ms. */
const targetRatio = 2
const targetReleaseMillis = 100

/** One row of the result: a read on a store, medians over the repetitions. */
interface Figure {
  readonly store: string
  readonly read: string
  readonly what: string
  readonly small: number
  readonly large: number
  readonly ratio: number
  readonly medianRatio: number
  readonly smallPerRep: ReadonlyArray<number>
  readonly largePerRep: ReadonlyArray<number>
  readonly target: string
  readonly pass: boolean
}

/** How long building one playbook's dataset took. */
interface Build {
  readonly store: string
  readonly playbook: string
  readonly runs: number
  readonly facts: number
  readonly seconds: number
}

log(
  `reads bench: ${config.largeRuns.toLocaleString("en-US")} runs vs ${config.smallRuns.toLocaleString("en-US")} ` +
    `(${config.factsPerRun} facts each), ${config.reps} interleaved reps of ${config.requests} requests per read ` +
    `(BENCH_SCALE=${config.scale}${config.analyze ? "" : ", BENCH_ANALYZE=0"}), node ${process.version}, ` +
    `${cpus().length} cpus`
)

let runIndex = 0

/** The median milliseconds of `requests` requests of a read on a playbook. */
const sample = async (row: ReadRow, runtime: Awaited<ReturnType<typeof openReadsRuntime>>, playbook: Playbook) => {
  const times: Array<number> = []
  for (let request = 0; request < config.requests; request++)
    times.push(await row.measure(runtime, playbook, runIndex++))
  return median(times)
}

/** Builds both datasets on a store, then times every read on both, interleaved, and closes the store. */
const measureStore = async (name: string, store: ReadsStore, builds: Array<Build>): Promise<Array<Figure>> => {
  const runtime = await openReadsRuntime(store, [small, large])
  try {
    for (const [playbook, runs] of [
      [small, config.smallRuns],
      [large, config.largeRuns]
    ] as const) {
      const start = performance.now()
      const facts = await runtime.runtime.runPromise(
        recordRuns(config, playbook, runs, (done) =>
          log(`${name}: ${playbook.org} ${done.toLocaleString("en-US")} runs`)
        )
      )
      const seconds = (performance.now() - start) / 1_000
      builds.push({ store: name, playbook: playbook.org, runs, facts, seconds })
      log(`${name}: ${playbook.org} built, ${facts.toLocaleString("en-US")} facts in ${seconds.toFixed(1)} s`)
    }
    if (config.analyze) await runtime.analyze()
    for (const row of readRows) for (const playbook of [small, large]) await row.measure(runtime, playbook, runIndex++)
    const perRep = new Map(
      readRows.map((row) => [row.name, { small: [] as Array<number>, large: [] as Array<number> }])
    )
    for (let rep = 0; rep < config.reps; rep++) {
      for (const row of readRows) {
        const sides = rep % 2 === 0 ? (["small", "large"] as const) : (["large", "small"] as const)
        for (const side of sides)
          perRep.get(row.name)![side].push(await sample(row, runtime, side === "small" ? small : large))
      }
      log(
        `${name}: rep ${rep + 1}/${config.reps} ` +
          readRows
            .map((row) => {
              const { small: s, large: l } = perRep.get(row.name)!
              return `${row.name} ${s[rep]!.toFixed(1)}/${l[rep]!.toFixed(1)} ms`
            })
            .join("; ")
      )
    }
    return readRows.map((row) => {
      const { small: smallPerRep, large: largePerRep } = perRep.get(row.name)!
      const ratio = median(largePerRep) / median(smallPerRep)
      const release = row === readRows[readRows.length - 1]
      return {
        store: name,
        read: row.name,
        what: row.what,
        small: median(smallPerRep),
        large: median(largePerRep),
        ratio,
        medianRatio: median(largePerRep.map((value, index) => value / smallPerRep[index]!)),
        smallPerRep,
        largePerRep,
        target: release ? `large ≤ ${targetReleaseMillis} ms` : `ratio ≤ ${targetRatio}`,
        pass: release ? median(largePerRep) <= targetReleaseMillis : ratio <= targetRatio
      }
    })
  } finally {
    await runtime.close()
  }
}

/** The figures as a text table. */
const table = (rows: ReadonlyArray<Figure>): string => {
  const header = ["store", "read", "page", "1k runs ms", "100k runs ms", "ratio", "median ratio", "target", "result"]
  const cells = rows.map((row) => [
    row.store,
    row.read,
    row.what,
    row.small.toFixed(2),
    row.large.toFixed(2),
    row.ratio.toFixed(2),
    row.medianRatio.toFixed(2),
    row.target,
    row.pass ? "PASS" : "FAIL"
  ])
  return textTable(header, cells, new Set([3, 4, 5, 6]))
}

const figures: Array<Figure> = []
const builds: Array<Build> = []
let postgresProblem: string | undefined
if (config.memory) figures.push(...(await measureStore("memory", { kind: "memory" }, builds)))
if (config.postgres) {
  const store = await loadPostgresStore()
  if (!store.available) postgresProblem = store.reason
  else figures.push(...(await measureStore("postgres", { kind: "postgres", store, url: config.databaseUrl }, builds)))
}

log("")
for (const build of builds)
  log(
    `built ${build.store} ${build.playbook}: ${build.runs.toLocaleString("en-US")} runs, ` +
      `${build.facts.toLocaleString("en-US")} facts in ${build.seconds.toFixed(1)} s ` +
      `(${Math.round(build.facts / build.seconds).toLocaleString("en-US")} facts/s through Ledger.append)`
  )
log(`\n${table(figures)}`)
log(
  "\nms: medians over the repetitions of each repetition's median request, the HTTP handler in-process; the large " +
    `column is the playbook of ${config.largeRuns.toLocaleString("en-US")} runs. ratio = large median / small ` +
    "median; median ratio = median of the per-repetition ratios."
)
if (postgresProblem !== undefined) log(`\nPOSTGRES STORE UNAVAILABLE: ${postgresProblem}`)
const failed = figures.filter((figure) => !figure.pass)
log(
  failed.length === 0
    ? "\nall targets met"
    : `\ntargets missed: ${failed.map((figure) => `${figure.store} ${figure.read}`).join(", ")}`
)
const results = new URL("../results/", import.meta.url)
await mkdir(results, { recursive: true })
await writeFile(
  new URL("reads-latest.json", results),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, config: { ...config, databaseUrl: undefined }, builds, figures }, null, 2)}\n`
)
log("figures written to bench/results/reads-latest.json")
if (config.strict && (failed.length > 0 || postgresProblem !== undefined)) process.exitCode = 1
