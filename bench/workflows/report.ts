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

/** A target: a ratio of two figures (of medians, and the median of the per-repetition ratios) against a bound. */
interface Target {
  readonly what: string
  readonly ratio: number
  readonly perRep: number
  readonly bound: string
  readonly pass: boolean | undefined
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
  const target = (
    what: string,
    figures: { ratio: number; perRep: number },
    bound: string,
    holds: (value: number) => boolean
  ): Target => ({
    what,
    ...figures,
    bound,
    pass: Number.isFinite(figures.ratio) ? holds(figures.ratio) : undefined
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
    target("RunLedger p50 / raw INSERT p50 (sequential)", ratio(rlCalls, raw, p50), "≤ 1.5", (value) => value <= 1.5),
    target("DBOS p50 / raw INSERT p50 (sequential)", ratio(dbos, raw, p50), "≥ 2.5", (value) => value >= 2.5),
    target(
      "RunLedger / DBOS steps/s (concurrent)",
      ratio(find("concurrent", "RunLedger call steps"), find("concurrent", "DBOS steps"), rate),
      "≥ 3",
      (value) => value >= 3
    ),
    target(
      "RunLedger / @effect/workflow steps/s (memory)",
      ratio(find("memory", "RunLedger call steps"), find("memory", "@effect/workflow steps"), rate),
      "≥ 20",
      (value) => value >= 20
    ),
    target(
      "RunLedger / @effect/workflow steps/s (memory concurrent)",
      ratio(
        find("memory concurrent", "RunLedger call steps"),
        find("memory concurrent", "@effect/workflow steps"),
        rate
      ),
      "≥ 20",
      (value) => value >= 20
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
      ["target", "ratio of medians", "median of rep ratios", "bound", "result"],
      targets.map((line) => [
        line.what,
        fixed(line.ratio, 2),
        fixed(line.perRep, 2),
        line.bound,
        line.pass === undefined ? "—" : line.pass ? "PASS" : "FAIL"
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
  printFloors(report, of, find)
  for (const row of [rlCalls, dbos]) {
    const statements = row === undefined ? undefined : samples.get(row)!.at(-1)?.statements
    if (row === undefined || statements === undefined) continue
    log(`\nstatements per step, ${row.section} ${row.name} (last repetition; text start: round trips per step):`)
    for (const [shape, perStep] of statements.slice(0, 14)) log(`  ${fixed(perStep, 2).padStart(6)}  ${shape}`)
  }
  for (const note of report.notes) log(`\n${note}`)
  const missed = targets.filter((line) => line.pass === false)
  log(missed.length === 0 ? "\nall targets met" : `\ntargets missed: ${missed.map((line) => line.what).join("; ")}`)
  if (report.config.strict && missed.length > 0) process.exitCode = 1
}

/**
 * What each timing target leaves one call step, beside what the step's callee costs by itself (the floor rows) in
 * the same run: a target a callee's run alone exceeds cannot be met while call steps run their callee in the
 * sandbox.
 */
const printFloors = (
  report: Report,
  of: (row: Row | undefined, pick: (sample: Sample) => number | undefined) => number,
  find: (section: Row["section"], name: string) => Row | undefined
): void => {
  const sandbox = find("memory", calleeFloorRows.sandbox)
  const bare = find("memory", calleeFloorRows.bare)
  if (sandbox === undefined || bare === undefined) return
  const wall = (sample: Sample) => sample.wallPerStep
  const sandboxMs = of(sandbox, wall)
  const sandboxCpu = of(sandbox, (sample) => sample.cpuPerStep)
  const bareMs = of(bare, wall)
  const lines = [
    `a callee's run by itself: ${fixed(sandboxMs, 3)} ms through the runtime's sandbox (Sandbox.run: worker, ` +
      `prelude, bounds; ${fixed(sandboxCpu, 3)} ms of the process's CPU), ${fixed(bareMs, 3)} ms in a bare ` +
      "QuickJS context on the main thread"
  ]
  const budget = (what: string, ms: number) =>
    Number.isFinite(ms)
      ? `${what}: ${fixed(ms, 3)} ms per call step, ${fixed(ms / sandboxMs, 2)}× the sandbox run, ` +
        `${fixed(ms / bareMs, 2)}× the bare run`
      : undefined
  const effectMs = of(find("memory", "@effect/workflow steps"), wall)
  const rawP50 = of(find("sequential", "raw INSERT"), (sample) => sample.stepP50)
  const dbosRate = of(find("concurrent", "DBOS steps"), (sample) => sample.stepsPerSecond)
  const cores = cpus().length
  for (const line of [
    budget("memory target (≥ 20× @effect/workflow) leaves", effectMs / 20),
    budget("sequential target (≤ 1.5× raw INSERT p50) leaves, one commit included", 1.5 * rawP50),
    Number.isFinite(dbosRate)
      ? `concurrent target (≥ 3× DBOS) leaves ${fixed((cores * 1_000) / (3 * dbosRate), 3)} ms of CPU per call ` +
        `step on ${cores} cores (PostgreSQL's included), ${fixed((cores * 1_000) / (3 * dbosRate) / sandboxCpu, 2)}× ` +
        "the sandbox run's CPU"
      : undefined
  ])
    if (line !== undefined) lines.push(line)
  report.log(`\nfloors (medians of the same run):\n${lines.map((line) => `  ${line}`).join("\n")}`)
}
