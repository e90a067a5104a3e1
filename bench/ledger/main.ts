/**
 * The ledger benchmark: appends of 1-fact and 10-fact batches to many streams and reads of everything in global
 * order, on the memory and the Postgres stores, each beside a floor measured in the same run (a plain array; plain
 * INSERTs through the same driver), as medians of interleaved repetitions. See bench/README.md.
 */
import { mkdir, writeFile } from "node:fs/promises"
import { cpus } from "node:os"
import { Cause, Effect, Exit, type Scope } from "effect"
import { readConfig } from "./config.js"
import { openMemory } from "./memoryStore.js"
import { loadPostgresStore, openPostgres } from "./postgresStore.js"
import { type Pair, runRepetitions, type Sample } from "./repetitions.js"
import { type Figure, figures, table } from "./report.js"
import { installStatementCounter } from "./statementCounter.js"
import { makeWorkloads, memorySteps, postgresSteps, type Step } from "./steps.js"

const config = readConfig()
const warmStreams = Math.max(10, Math.round(config.streams / 10))
const memoryWorkloads = makeWorkloads(config, config.streams, config.memoryAppends)
const memoryWarmup = makeWorkloads(config, warmStreams, config.memoryAppends)
const workloads = makeWorkloads(config, config.streams, config.postgresAppends)
const warmup = makeWorkloads(config, warmStreams, config.postgresAppends)
const log = (line: string) => process.stdout.write(`${line}\n`)

log(
  `ledger bench: ${config.streams} streams, ${config.reps} interleaved reps (BENCH_SCALE=${config.scale}), ` +
    `node ${process.version}, ${cpus().length} cpus; appends per stream (1-fact/batch): ` +
    `memory ${config.memoryAppends.single}/${config.memoryAppends.batch}, ` +
    `postgres ${config.postgresAppends.single}/${config.postgresAppends.batch}`
)

/** Warms the store up once (unrecorded), then runs the recorded repetitions and reduces them to figures. */
const measure = <E>(
  store: string,
  open: Effect.Effect<Pair, E, Scope.Scope>,
  steps: ReadonlyArray<Step>,
  warmSteps: ReadonlyArray<Step>,
  statements?: () => number
) =>
  Effect.gen(function* () {
    log(`\n${store}: warm-up…`)
    yield* runRepetitions({ open, steps: warmSteps, reps: 1, pageSize: config.pageSize })
    const samples = yield* runRepetitions({
      open,
      steps,
      reps: config.reps,
      pageSize: config.pageSize,
      onRep: (rep, done) => log(`${store}: rep ${rep + 1}/${config.reps} ${progress(done)}`),
      ...(statements === undefined ? {} : { statements })
    })
    return { figures: figures(store, steps, samples), samples }
  })

const progress = (samples: ReadonlyArray<Sample>) =>
  samples
    .map(
      (sample) => `${sample.step} ${sample.side} ${Math.round(sample.facts / sample.seconds).toLocaleString("en-US")}/s`
    )
    .join("; ")

const program = Effect.gen(function* () {
  const rows: Array<Figure> = []
  const raw: Record<string, ReadonlyArray<Sample>> = {}

  const memory = yield* measure(
    "memory",
    openMemory,
    memorySteps(memoryWorkloads, config.pageSize),
    memorySteps(memoryWarmup, config.pageSize)
  )
  rows.push(...memory.figures)
  raw.memory = memory.samples

  let postgres: { readonly available: boolean; readonly reason?: string } = {
    available: false,
    reason: "skipped (BENCH_POSTGRES=0)"
  }
  if (config.postgres) {
    const store = yield* Effect.promise(() => loadPostgresStore())
    if (!store.available) postgres = store
    else {
      const measured = yield* Effect.exit(
        measure(
          "postgres",
          openPostgres(store.layer, config.databaseUrl),
          postgresSteps(workloads, config.pageSize, config.appenders),
          postgresSteps(warmup, config.pageSize, config.appenders),
          yield* Effect.promise(() => installStatementCounter())
        )
      )
      if (Exit.isFailure(measured))
        postgres = { available: false, reason: `the run failed: ${Cause.pretty(measured.cause)}` }
      else {
        postgres = { available: true }
        rows.push(...measured.value.figures)
        raw.postgres = measured.value.samples
      }
    }
  }

  log(`\n${table(rows)}`)
  log(
    "\nfacts/s are medians over the repetitions; ratio = ledger median / baseline median; median ratio = median of " +
      "per-repetition ratios; stmts/append = statements sent to PostgreSQL per append (ledger vs baseline). " +
      "Baselines: memory = plain array + Map; postgres = plain INSERTs, same driver."
  )
  if (!postgres.available) log(`\nPOSTGRES STORE UNAVAILABLE: ${postgres.reason}`)

  const failed = rows.filter((row) => row.pass === false)
  log(
    failed.length === 0
      ? "\nall targets met"
      : `\ntargets missed: ${failed.map((row) => `${row.store} ${row.workload}`).join(", ")}`
  )

  const results = new URL("../results/", import.meta.url)
  yield* Effect.promise(async () => {
    await mkdir(results, { recursive: true })
    await writeFile(
      new URL("ledger-latest.json", results),
      `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, config: { ...config, databaseUrl: undefined }, postgres, figures: rows, samples: raw }, null, 2)}\n`
    )
  })
  log("figures written to bench/results/ledger-latest.json")
  if (config.strict && (failed.length > 0 || (config.postgres && !postgres.available))) process.exitCode = 1
})

await Effect.runPromise(program)
