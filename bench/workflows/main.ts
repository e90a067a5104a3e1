/**
 * The workflows benchmark (issue 4): RunLedger's workflow engine, driven in-process through the core `dispatch`,
 * beside DBOS Transact and a raw single-row INSERT on the same PostgreSQL database, and beside
 * `@effect/workflow`'s in-memory engine on the memory store; then the cost of resuming a run as its history grows,
 * and the commits and round trips per step. Medians of interleaved repetitions. See bench/README.md.
 */
import { cpus } from "node:os"
import * as MemoryStore from "@runledger/store-memory"
import { median } from "../ledger/measure.js"
import { loadPostgresStore, maxConnections } from "../ledger/postgresStore.js"
import { cpuSpent, postgresPids } from "../scale/cpu.js"
import { mainThreadOnCpuMillis, processesOnCpuMillis } from "../shared/threadCpu.js"
import { type BenchDatabase, createBenchDatabase } from "./benchDatabase.js"
import { type CalleeRuns, openCalleeFloors } from "./calleeFloors.js"
import { readWorkflowsConfig } from "./config.js"
import { prepareGrowthRuns } from "./costGrowth.js"
import { launchDbos } from "./dbosPeer.js"
import { openEffectWorkflow } from "./effectWorkflowPeer.js"
import { openRawInsert } from "./rawInsert.js"
import { calleeFloorRows, printReport, type Row, writeFloorRows } from "./report.js"
import {
  type EndedRun,
  openRunLedger,
  type RunLedgerRuntime,
  saveBenchDefinitions,
  workflowNames
} from "./runLedgerRuntime.js"
import { chainTimings, type Sample } from "./sample.js"
import { openStepWriteFloor } from "./stepWriteFloor.js"
import { isCallStepAppend, replayPayloads, type StepWrites, stepWritesOf, workflowInputOf } from "./stepWrites.js"
import { installTransactionCounter, type Sent, type Whose } from "./transactionCounter.js"

const config = readWorkflowsConfig()
const log = (line: string) => process.stdout.write(`${line}\n`)
// The counter keeps the latest append of a call step the store sent: the step-writes floor replays it.
const sent = await installTransactionCounter(isCallStepAppend)
const { steps, concurrent } = config

log(
  `workflows bench: ${steps} steps per workflow, ${concurrent} concurrent workflows, ${config.reps} interleaved reps ` +
    `(BENCH_SCALE=${config.scale}), node ${process.version}, ${cpus().length} cpus`
)

/** Per step, what the driver sent for `whose` clients between `before` and `after` (now by default). */
const perStep = (before: Sent, count: number, whose: Whose, after: Sent = sent(whose)) => {
  return {
    commits: (after.commits - before.commits) / count,
    writeCommits: (after.writeCommits - before.writeCommits) / count,
    roundTrips: (after.roundTrips - before.roundTrips) / count,
    statements: [...after.shapes]
      .map(([shape, total]) => [shape, (total - (before.shapes.get(shape) ?? 0)) / count] as const)
      .filter(([, perStep]) => perStep > 0)
      .sort(([, a], [, b]) => b - a)
  }
}

/** A wrong output, or nothing. */
const check = (output: unknown, expected: number): { wrong?: string } => {
  const n = typeof output === "number" ? output : (output as { n?: unknown } | undefined)?.n
  return n === expected ? {} : { wrong: `output ${JSON.stringify(output)}, expected n = ${expected}` }
}

/** One RunLedger workflow, timed by its own facts and by the wall clock. */
const sequentialRunLedger =
  (runtime: RunLedgerRuntime, name: string, counted: boolean) => async (): Promise<Sample> => {
    const before = sent("runledger")
    let after = before
    const run = await runtime.runWorkflow(name, { n: 0 }, { ended: () => (after = sent("runledger")) })
    return {
      ...(name === workflowNames.calls ? { stepP50: median(run.inputGaps) } : {}),
      wallPerStep: run.wallMs / steps,
      stepsPerSecond: steps / (run.wallMs / 1_000),
      ...(counted ? perStep(before, steps, "runledger", after) : {}),
      ...(run.status === "succeeded" ? check(run.output, steps) : { wrong: `run ${run.runId} ${run.status}` })
    }
  }

/** `concurrent` RunLedger workflows at once: steps/s from the first start to the last ending the facts record. */
const concurrentRunLedger = (runtime: RunLedgerRuntime, counted: boolean) => async (): Promise<Sample> => {
  const before = sent("runledger")
  const begin = performance.now()
  const runs: Array<EndedRun> = await Promise.all(
    Array.from({ length: concurrent }, () => runtime.runWorkflow(workflowNames.calls, { n: 0 }, { gaps: false }))
  )
  const wallMs = performance.now() - begin
  const total = steps * concurrent
  const wrong = runs.map((run) => (run.status === "succeeded" ? check(run.output, steps).wrong : `${run.status}`))
  return {
    wallPerStep: wallMs / total,
    stepsPerSecond: total / (wallMs / 1_000),
    ...(counted ? perStep(before, total, "runledger") : {}),
    ...(wrong.some((reason) => reason !== undefined) ? { wrong: wrong.find((reason) => reason !== undefined)! } : {})
  }
}

/** PostgreSQL's time on a core so far: its backends serving the benchmark's database, and its own processes. */
const postgresOnCpu = (database: BenchDatabase) => {
  const { backends, auxiliary } = postgresPids(database.name)
  return processesOnCpuMillis([...backends, ...auxiliary])
}

/**
 * One repetition of a row, with the CPU time it took per step: the process's, its main thread's and, for a
 * Postgres row, PostgreSQL's.
 */
const measured = async (row: Row): Promise<Sample> => {
  const postgres = row.store === "postgres" && database !== undefined ? postgresOnCpu(database) : undefined
  const cpu = process.cpuUsage()
  const main = mainThreadOnCpuMillis()
  const sample = await row.measure()
  const used = process.cpuUsage(cpu)
  const mainAfter = mainThreadOnCpuMillis()
  return {
    ...sample,
    cpuPerStep: (used.user + used.system) / 1_000 / row.steps,
    ...(main === undefined || mainAfter === undefined ? {} : { mainCpuPerStep: (mainAfter - main) / row.steps }),
    ...(postgres === undefined || database === undefined
      ? {}
      : { postgresCpuPerStep: cpuSpent(postgres, postgresOnCpu(database)) / row.steps })
  }
}

/** The call step whose writes the floor rows replay: the latest the store sent, or why there is none. */
const capturedStep = (): StepWrites | string => {
  const text = sent("runledger").kept
  return text === undefined ? "no append of a call step was sent yet" : stepWritesOf(text)
}

const rows: Array<Row> = []
const closers: Array<() => Promise<void>> = []
const notes: Array<string> = []
let database: BenchDatabase | undefined
let growth: Awaited<ReturnType<typeof prepareGrowthRuns>> | undefined
/** Shuts DBOS down (its background queries would count in pg_stat_database); closing twice does nothing. */
let stopPeers: () => Promise<void> = async () => undefined

try {
  if (config.postgres) {
    const store = await loadPostgresStore()
    if (!store.available) notes.push(`POSTGRES ROWS MISSING: ${store.reason}`)
    else {
      database = await createBenchDatabase(config.databaseUrl)
      const url = database.url
      log(`database ${database.name} created`)
      const postgres = await openRunLedger(store.layer({ url, schema: "runledger", maxConnections }))
      closers.push(postgres.close)
      await saveBenchDefinitions(postgres, steps)
      const raw = await openRawInsert(url, maxConnections)
      closers.push(raw.close)
      const writeFloor = await openStepWriteFloor(url, store.layer, maxConnections)
      closers.push(writeFloor.close)
      /** Replays the captured call step's writes as `chains` chains of `steps` (see `replayPayloads`). */
      const replay = async (
        pick: (writes: StepWrites) => StepWrites,
        chains: number,
        grouped: boolean
      ): Promise<Sample> => {
        const writes = capturedStep()
        if (typeof writes === "string") return { wallPerStep: Number.NaN, stepsPerSecond: Number.NaN, wrong: writes }
        const ends = await writeFloor.run(replayPayloads(pick(writes), chains, steps, grouped))
        // A grouped statement carries a step of every chain: its gaps are rounds, not steps.
        const { stepP50, ...timings } = chainTimings(ends, steps * chains)
        return grouped ? timings : { stepP50, ...timings }
      }
      rows.push(
        {
          section: "sequential",
          name: "RunLedger call steps",
          store: "postgres",
          steps,
          measure: sequentialRunLedger(postgres, workflowNames.calls, true)
        },
        {
          section: "sequential",
          name: "RunLedger set steps",
          store: "postgres",
          steps,
          measure: sequentialRunLedger(postgres, workflowNames.sets, true)
        },
        {
          section: "sequential",
          name: "raw INSERT",
          store: "postgres",
          steps,
          measure: async () => {
            const before = sent("others")
            const ends = await raw.run(steps)
            return { ...chainTimings(ends, steps), ...perStep(before, steps, "others") }
          }
        },
        {
          section: "sequential",
          name: writeFloorRows.plain,
          store: "postgres",
          steps,
          measure: () => replay((writes) => writes, 1, false)
        },
        {
          section: "sequential",
          name: writeFloorRows.firstFact,
          store: "postgres",
          steps,
          measure: () => replay((writes) => ({ ...writes, facts: [workflowInputOf(writes)], documents: [] }), 1, false)
        }
      )
      const dbos = await launchDbos(url).catch((error: unknown) => {
        notes.push(`DBOS ROWS MISSING: DBOS could not be launched: ${String(error)}`)
        return undefined
      })
      if (dbos !== undefined) {
        closers.push(dbos.close)
        stopPeers = dbos.close
        rows.push({
          section: "sequential",
          name: "DBOS steps",
          store: "postgres",
          steps,
          measure: async () => {
            const before = sent("others")
            const run = await dbos.run(steps)
            return {
              ...chainTimings(run.stepEnds, steps),
              ...perStep(before, steps, "others"),
              ...check(run.output, steps)
            }
          }
        })
      }
      rows.push(
        {
          section: "concurrent",
          name: "RunLedger call steps",
          store: "postgres",
          steps: steps * concurrent,
          measure: concurrentRunLedger(postgres, true)
        },
        {
          section: "concurrent",
          name: writeFloorRows.grouped,
          store: "postgres",
          steps: steps * concurrent,
          measure: () => replay((writes) => writes, concurrent, true)
        }
      )
      if (dbos !== undefined)
        rows.push({
          section: "concurrent",
          name: "DBOS steps",
          store: "postgres",
          steps: steps * concurrent,
          measure: async () => {
            const before = sent("others")
            const begin = performance.now()
            const runs = await Promise.all(Array.from({ length: concurrent }, () => dbos.run(steps)))
            const wallMs = performance.now() - begin
            const total = steps * concurrent
            const wrong = runs.map((run) => check(run.output, steps).wrong).find((reason) => reason !== undefined)
            return {
              wallPerStep: wallMs / total,
              stepsPerSecond: total / (wallMs / 1_000),
              ...perStep(before, total, "others"),
              ...(wrong === undefined ? {} : { wrong })
            }
          }
        })
      log("preparing the cost-growth runs…")
      growth = await prepareGrowthRuns(
        () => store.layer({ url, schema: "growth", maxConnections }),
        config.histories,
        config.reps * 5
      )
    }
  } else notes.push("Postgres rows skipped (BENCH_POSTGRES=0)")

  const memory = await openRunLedger(MemoryStore.layer)
  closers.push(memory.close)
  await saveBenchDefinitions(memory, steps)
  const effect = openEffectWorkflow()
  closers.push(effect.close)
  const effectRow = (count: number) => async (): Promise<Sample> => {
    const begin = performance.now()
    const outputs = await Promise.all(Array.from({ length: count }, () => effect.run(steps)))
    const wallMs = performance.now() - begin
    const wrong = outputs.map((output) => check(output, steps).wrong).find((reason) => reason !== undefined)
    return {
      wallPerStep: wallMs / (steps * count),
      stepsPerSecond: (steps * count) / (wallMs / 1_000),
      ...(wrong === undefined ? {} : { wrong })
    }
  }
  const floors = await openCalleeFloors()
  closers.push(floors.close)
  const floorRow = (runs: (count: number) => Promise<CalleeRuns>) => async (): Promise<Sample> => {
    const { output, ends } = await runs(steps)
    return { ...chainTimings(ends, steps), ...check(output, steps) }
  }
  rows.push(
    {
      section: "memory",
      name: "RunLedger call steps",
      store: "memory",
      steps,
      measure: sequentialRunLedger(memory, workflowNames.calls, false)
    },
    {
      section: "memory",
      name: "RunLedger set steps",
      store: "memory",
      steps,
      measure: sequentialRunLedger(memory, workflowNames.sets, false)
    },
    { section: "memory", name: "@effect/workflow steps", store: "memory", steps, measure: effectRow(1) },
    { section: "memory", name: calleeFloorRows.sandbox, store: "memory", steps, measure: floorRow(floors.sandboxRuns) },
    { section: "memory", name: calleeFloorRows.bare, store: "memory", steps, measure: floorRow(floors.bareRuns) },
    {
      section: "memory concurrent",
      name: "RunLedger call steps",
      store: "memory",
      steps: steps * concurrent,
      measure: concurrentRunLedger(memory, false)
    },
    {
      section: "memory concurrent",
      name: "@effect/workflow steps",
      store: "memory",
      steps: steps * concurrent,
      measure: effectRow(concurrent)
    }
  )

  log("warm-up…")
  for (const row of rows) await row.measure()
  const samples = new Map<Row, Array<Sample>>(rows.map((row) => [row, []]))
  const resumes: Array<ReadonlyMap<number, number>> = []
  for (let rep = 0; rep < config.reps; rep++) {
    const order = rows.map((_, index) => rows[(index + rep) % rows.length]!)
    for (const row of rep % 2 === 0 ? order : order.reverse()) samples.get(row)!.push(await measured(row))
    if (growth !== undefined)
      for (let restart = rep; restart < growth.restarts; restart += config.reps)
        resumes.push(await growth.resume(restart))
    log(
      `rep ${rep + 1}/${config.reps}: ${rows
        .map(
          (row) => `${row.section}/${row.name}/${row.store} ${Math.round(samples.get(row)!.at(-1)!.stepsPerSecond)}/s`
        )
        .join("; ")}`
    )
  }
  let xactCommits: number | undefined
  if (database !== undefined) {
    // pg_stat_database as a cross-check of the driver's count: idle connections report within ~10 s (PG 15).
    const settle = () => new Promise((resolve) => setTimeout(resolve, 11_000))
    const calls = rows.find((row) => row.section === "sequential" && row.name === "RunLedger call steps")!
    log("reading pg_stat_database.xact_commit around one RunLedger call workflow…")
    await stopPeers()
    await settle()
    const before = await database.commits()
    await calls.measure()
    await settle()
    xactCommits = ((await database.commits()) - before) / steps
  }
  printReport({ log, config, rows, samples, resumes, xactCommits, notes })
} finally {
  for (const close of closers.reverse()) await close().catch(() => undefined)
  await database?.drop()
}
