import { cpus } from "node:os"
import { median } from "../ledger/measure.js"
import { fixed } from "../shared/fixed.js"
import { textTable } from "../shared/textTable.js"
import type { WorkflowsConfig } from "./config.js"
import { medianOf, type Sample } from "./sample.js"

/** One row of the table: what it measures, and how one repetition of it is measured. */
export interface Row {
  readonly section: "sequential" | "concurrent" | "memory" | "memory concurrent"
  readonly name: string
  readonly store: "postgres" | "memory"
  /** The steps one repetition takes (the workflows' steps, times how many run at once). */
  readonly steps: number
  readonly measure: () => Promise<Sample>
}

/** The names of the memory section's floor rows: a call step's callee run by itself (`calleeFloors.ts`). */
export const calleeFloorRows = {
  sandbox: "sandbox runs (callee floor)",
  bare: "bare QuickJS runs (callee floor)"
} as const

/**
 * The names of the Postgres floor rows: a call step's writes replayed as plain SQL (`stepWriteFloor.ts`), one step a
 * statement, its first fact alone, and one step of every concurrent workflow a statement (as group commit sends).
 */
export const writeFloorRows = {
  plain: "call step's writes, plain SQL (floor)",
  firstFact: "its first fact alone, plain SQL (floor)",
  grouped: "call step's writes, grouped (floor)"
} as const

/** Everything the report prints. */
export interface Report {
  readonly log: (line: string) => void
  readonly config: WorkflowsConfig
  readonly rows: ReadonlyArray<Row>
  readonly samples: ReadonlyMap<Row, ReadonlyArray<Sample>>
  /** Per restart, the milliseconds one input took per history length. */
  readonly resumes: ReadonlyArray<ReadonlyMap<number, number>>
  /** Commits per step of one RunLedger call workflow as `pg_stat_database.xact_commit` counted them. */
  readonly xactCommits: number | undefined
  readonly notes: ReadonlyArray<string>
}

/**
 * A target: a ratio of two figures (of medians, and the median of the per-repetition ratios) against a bound, and
 * the best ratio the floors of the same run allow (`floor`), where one is measured.
 */
interface Target {
  readonly what: string
  readonly ratio: number
  readonly perRep: number
  readonly bound: string
  readonly pass: boolean | undefined
  readonly floor: number
  /** Whether the floor itself meets the bound: false says no step built on those floors can. */
  readonly reachable: boolean | undefined
}

/** Prints the table of rows, the targets with their ratios, and the notes. */
export const printReport = (report: Report): void => {
  const { log, rows, samples } = report
  const find = (section: Row["section"], name: string) =>
    rows.find((row) => row.section === section && row.name === name)
  const of = (row: Row | undefined, pick: (sample: Sample) => number | undefined) =>
    row === undefined ? Number.NaN : medianOf(samples.get(row)!, pick)
  log(
    `\n${textTable(
      [
        "section",
        "row",
        "store",
        "p50 ms/step",
        "wall ms/step",
        "steps/s",
        "commits/step",
        "writes/step",
        "round trips/step",
        "cpu ms/step",
        "main thread ms/step",
        "postgres cpu ms/step",
        "wrong"
      ],
      rows.map((row) => [
        row.section,
        row.name,
        row.store,
        fixed(
          of(row, (sample) => sample.stepP50),
          2
        ),
        fixed(
          of(row, (sample) => sample.wallPerStep),
          2
        ),
        Math.round(of(row, (sample) => sample.stepsPerSecond)).toLocaleString("en-US"),
        fixed(
          of(row, (sample) => sample.commits),
          2
        ),
        fixed(
          of(row, (sample) => sample.writeCommits),
          2
        ),
        fixed(
          of(row, (sample) => sample.roundTrips),
          2
        ),
        fixed(
          of(row, (sample) => sample.cpuPerStep),
          2
        ),
        fixed(
          of(row, (sample) => sample.mainCpuPerStep),
          2
        ),
        fixed(
          of(row, (sample) => sample.postgresCpuPerStep),
          2
        ),
        samples.get(row)!.filter((sample) => sample.wrong !== undefined).length === 0
          ? ""
          : samples.get(row)!.find((sample) => sample.wrong !== undefined)!.wrong!
      ])
    )}`
  )

  /** `top` over `bottom` of one figure, as a ratio of medians and as the median of the per-repetition ratios. */
  const ratio = (top: Row | undefined, bottom: Row | undefined, pick: (sample: Sample) => number | undefined) => {
    if (top === undefined || bottom === undefined) return { ratio: Number.NaN, perRep: Number.NaN }
    const tops = samples.get(top)!
    const bottoms = samples.get(bottom)!
    return {
      ratio: of(top, pick) / of(bottom, pick),
      perRep: median(tops.map((sample, rep) => pick(sample)! / pick(bottoms[rep]!)!))
    }
  }
  const floors = floorsOf(of, find)
  const target = (
    what: string,
    figures: { ratio: number; perRep: number },
    bound: string,
    holds: (value: number) => boolean,
    floor = Number.NaN
  ): Target => ({
    what,
    ...figures,
    bound,
    pass: Number.isFinite(figures.ratio) ? holds(figures.ratio) : undefined,
    floor,
    reachable: Number.isFinite(floor) ? holds(floor) : undefined
  })
  const p50 = (sample: Sample) => sample.stepP50
  const rate = (sample: Sample) => sample.stepsPerSecond
  const rlCalls = find("sequential", "RunLedger call steps")
  const raw = find("sequential", "raw INSERT")
  const dbos = find("sequential", "DBOS steps")
  const histories = report.config.histories
  const resumeAt = (history: number) =>
    median(report.resumes.flatMap((sample) => (sample.has(history) ? [sample.get(history)!] : [])))
  const growth = {
    ratio: resumeAt(histories.at(-1)!) / resumeAt(histories[0]!),
    perRep: median(report.resumes.map((sample) => sample.get(histories.at(-1)!)! / sample.get(histories[0]!)!))
  }
  const single = (value: number) => ({ ratio: value, perRep: Number.NaN })
  const targets: Array<Target> = [
    target(
      "RunLedger p50 / raw INSERT p50 (sequential)",
      ratio(rlCalls, raw, p50),
      "≤ 1.5",
      (value) => value <= 1.5,
      floors.sequential
    ),
    target("DBOS p50 / raw INSERT p50 (sequential)", ratio(dbos, raw, p50), "≥ 2.5", (value) => value >= 2.5),
    target(
      "RunLedger / DBOS steps/s (concurrent)",
      ratio(find("concurrent", "RunLedger call steps"), find("concurrent", "DBOS steps"), rate),
      "≥ 3",
      (value) => value >= 3,
      floors.concurrent
    ),
    target(
      "RunLedger / @effect/workflow steps/s (memory)",
      ratio(find("memory", "RunLedger call steps"), find("memory", "@effect/workflow steps"), rate),
      "≥ 20",
      (value) => value >= 20,
      floors.memory
    ),
    target(
      "RunLedger / @effect/workflow steps/s (memory concurrent)",
      ratio(
        find("memory concurrent", "RunLedger call steps"),
        find("memory concurrent", "@effect/workflow steps"),
        rate
      ),
      "≥ 20",
      (value) => value >= 20,
      floors.memoryConcurrent
    ),
    target(
      `resume after input ${histories.at(-1)} / after input ${histories[0]}`,
      growth,
      "≤ 1.5",
      (value) => value <= 1.5
    ),
    target(
      "RunLedger commits per call step (driver)",
      single(of(rlCalls, (sample) => sample.commits)),
      "≤ 1",
      (value) => value <= 1
    ),
    target(
      "RunLedger round trips per call step",
      single(of(rlCalls, (sample) => sample.roundTrips)),
      "≤ 2",
      (value) => value <= 2
    ),
    target(
      "RunLedger commits per call step (xact_commit)",
      single(report.xactCommits ?? Number.NaN),
      "≤ 1",
      (value) => value <= 1
    )
  ]
  log(
    `\n${textTable(
      ["target", "ratio of medians", "median of rep ratios", "bound", "result", "floors allow", "reachable"],
      targets.map((line) => [
        line.what,
        fixed(line.ratio, 2),
        fixed(line.perRep, 2),
        line.bound,
        line.pass === undefined ? "—" : line.pass ? "PASS" : "FAIL",
        fixed(line.floor, 2),
        line.reachable === undefined ? "—" : line.reachable ? "yes" : "NO"
      ])
    )}`
  )
  if (report.resumes.length > 0)
    log(
      `\nresume (restart, then one input): ${histories
        .map((history) => `after input ${history}: ${fixed(resumeAt(history), 1)} ms`)
        .join(", ")} (medians of ${report.resumes.length} restarts)`
    )
  log(
    "\np50 ms/step: median gap between consecutive recorded step results (RunLedger: its workflow_input_applied " +
      "facts' times, ms resolution; DBOS and raw: when each step returned). wall ms/step: the repetition's wall " +
      "time over its steps. commits/step: transactions the driver ended (COMMIT, or a statement outside BEGIN … " +
      "COMMIT, reads included) by the RunLedger store's clients for its rows, by the others for the peers', until " +
      "the run was seen ended; writes/step: those that wrote; round trips/step: statements sent. cpu ms/step: the " +
      "process's CPU time over the repetition's steps (all threads: sandbox workers, GC, the peers' own); main " +
      "thread ms/step: the main thread's time on a core. Every figure is the median over the repetitions."
  )
  report.log(`\nfloors (medians of the same run):\n${floors.lines.map((line) => `  ${line}`).join("\n")}`)
  for (const row of [rlCalls, dbos]) {
    const statements = row === undefined ? undefined : samples.get(row)!.at(-1)?.statements
    if (row === undefined || statements === undefined) continue
    log(`\nstatements per step, ${row.section} ${row.name} (last repetition; text start: round trips per step):`)
    for (const [shape, perStep] of statements.slice(0, 14)) log(`  ${fixed(perStep, 2).padStart(6)}  ${shape}`)
  }
  for (const note of report.notes) log(`\n${note}`)
  const missed = targets.filter((line) => line.pass === false)
  log(missed.length === 0 ? "\nall targets met" : `\ntargets missed: ${missed.map((line) => line.what).join("; ")}`)
  const beyond = targets.filter((line) => line.reachable === false)
  if (beyond.length > 0) log(`targets beyond their floors in this run: ${beyond.map((line) => line.what).join("; ")}`)
  if (report.config.strict && missed.length > 0) process.exitCode = 1
}

/** The best ratio each timing target's floors allow, and the lines that say what they are. */
interface Floors {
  readonly sequential: number
  readonly concurrent: number
  readonly memory: number
  readonly memoryConcurrent: number
  readonly lines: ReadonlyArray<string>
}

/**
 * What each timing target leaves one call step, beside what a call step cannot do without in the same run: its
 * callee's run in the sandbox (the memory floor rows) and, on PostgreSQL, its facts and view documents written in
 * one commit (the write floor rows). From them, the best ratio each target could reach if a call step cost nothing
 * else: a target whose floors miss its bound cannot be met by any call step that runs its callee in the sandbox and
 * records its facts with their read models in one transaction (architecture.md: the ledger, the views).
 */
const floorsOf = (
  of: (row: Row | undefined, pick: (sample: Sample) => number | undefined) => number,
  find: (section: Row["section"], name: string) => Row | undefined
): Floors => {
  const wall = (sample: Sample) => sample.wallPerStep
  const p50 = (sample: Sample) => sample.stepP50
  const cores = cpus().length
  const sandboxMs = of(find("memory", calleeFloorRows.sandbox), wall)
  const sandboxCpu = of(find("memory", calleeFloorRows.sandbox), (sample) => sample.cpuPerStep)
  const bareMs = of(find("memory", calleeFloorRows.bare), wall)
  const effectMs = of(find("memory", "@effect/workflow steps"), wall)
  const effectConcurrentRate = of(
    find("memory concurrent", "@effect/workflow steps"),
    (sample) => sample.stepsPerSecond
  )
  const rawP50 = of(find("sequential", "raw INSERT"), p50)
  const plainP50 = of(find("sequential", writeFloorRows.plain), p50)
  const firstFactP50 = of(find("sequential", writeFloorRows.firstFact), p50)
  const groupedPostgresCpu = of(find("concurrent", writeFloorRows.grouped), (sample) => sample.postgresCpuPerStep)
  const dbosRate = of(find("concurrent", "DBOS steps"), (sample) => sample.stepsPerSecond)
  const floors = {
    sequential: plainP50 / rawP50,
    concurrent: (cores * 1_000) / (groupedPostgresCpu + sandboxCpu) / dbosRate,
    memory: effectMs / sandboxMs,
    memoryConcurrent: (cores * 1_000) / sandboxCpu / effectConcurrentRate
  }
  const lines = [
    `a callee's run by itself: ${fixed(sandboxMs, 3)} ms through the runtime's sandbox (Sandbox.run: worker, ` +
      `prelude, bounds; ${fixed(sandboxCpu, 3)} ms of the process's CPU), ${fixed(bareMs, 3)} ms in a bare ` +
      "QuickJS context on the main thread",
    `memory target (≥ 20× @effect/workflow) leaves ${fixed(effectMs / 20, 3)} ms per call step, ` +
      `${fixed(effectMs / 20 / sandboxMs, 2)}× the sandbox run: a step that cost only its callee's run would reach ` +
      `${fixed(floors.memory, 2)}× (concurrent, its CPU on ${cores} cores: ${fixed(floors.memoryConcurrent, 2)}×)`
  ]
  if (Number.isFinite(plainP50))
    lines.push(
      `sequential target (≤ 1.5× raw INSERT p50) leaves ${fixed(1.5 * rawP50, 3)} ms per call step, one commit ` +
        `included; a call step's writes alone, as plain SQL in one statement into the store's tables, take ` +
        `${fixed(plainP50, 3)} ms p50 (${fixed(floors.sequential, 2)}× the raw INSERT), its first fact alone ` +
        `${fixed(firstFactP50, 3)} ms (${fixed(firstFactP50 / rawP50, 2)}×)`
    )
  if (Number.isFinite(dbosRate))
    lines.push(
      `concurrent target (≥ 3× DBOS) leaves ${fixed((cores * 1_000) / (3 * dbosRate), 3)} ms of CPU per call ` +
        `step on ${cores} cores (PostgreSQL's included); PostgreSQL spends ${fixed(groupedPostgresCpu, 3)} ms on a ` +
        `step's writes grouped as group commit sends them, and the callee's run ${fixed(sandboxCpu, 3)} ms: a step ` +
        `that cost only these would reach ${fixed(floors.concurrent, 2)}× DBOS`
    )
  return { ...floors, lines }
}
