import { textTable } from "../shared/textTable.js"
import { median } from "./measure.js"
import type { Sample } from "./repetitions.js"
import type { Step, Target } from "./steps.js"

/** One row of the result: a step on a store, medians over the repetitions. */
export interface Figure {
  readonly workload: string
  readonly store: string
  readonly facts: number
  readonly reps: number
  /** Median facts/s of the ledger. */
  readonly ledger: number
  /** Median facts/s of the baseline. */
  readonly baseline: number
  /** Ledger median over baseline median. */
  readonly ratio: number
  /** Median of the per-repetition ratios (same repetition, adjacent runs). */
  readonly medianRatio: number
  /** Median statements per append sent by the ledger and by the baseline (Postgres appends). */
  readonly statementsPerAppend?: { readonly ledger: number; readonly baseline: number }
  readonly ledgerPerRep: ReadonlyArray<number>
  readonly baselinePerRep: ReadonlyArray<number>
  readonly target: string
  readonly pass: boolean | undefined
  /** Wrong results seen (a read that missed facts), which fail the row whatever its speed. */
  readonly problems: ReadonlyArray<string>
}

const rate = (sample: Sample) => sample.facts / sample.seconds

const describeTarget = (target: Target | undefined): string =>
  target === undefined
    ? "—"
    : target.kind === "absolute"
      ? `≥ ${target.factsPerSecond.toLocaleString("en-US")} facts/s`
      : `ratio ≥ ${target.atLeast.toFixed(2)}`

/** Reduces a store's samples to one figure per step. */
export const figures = (store: string, steps: ReadonlyArray<Step>, samples: ReadonlyArray<Sample>) =>
  steps.map((step): Figure => {
    const of = (side: Sample["side"]) =>
      samples.filter((sample) => sample.step === step.name && sample.side === side).sort((a, b) => a.rep - b.rep)
    const ledgerRuns = of("ledger")
    const baselineRuns = of("baseline")
    const ledgerPerRep = ledgerRuns.map(rate)
    const baselinePerRep = baselineRuns.map(rate)
    const ledger = median(ledgerPerRep)
    const baseline = median(baselinePerRep)
    const ratio = ledger / baseline
    const medianRatio = median(ledgerPerRep.map((value, index) => value / baselinePerRep[index]!))
    const target = step.target
    const problems = [
      ...new Set([...ledgerRuns, ...baselineRuns].flatMap((run) => (run.problem ? [`${run.side} ${run.problem}`] : [])))
    ]
    const fast =
      target === undefined
        ? undefined
        : target.kind === "absolute"
          ? ledger >= target.factsPerSecond
          : ratio >= target.atLeast
    const pass = problems.length > 0 ? false : fast
    const statements = (runs: ReadonlyArray<Sample>) =>
      median(runs.flatMap((run) => (run.statementsPerAppend === undefined ? [] : [run.statementsPerAppend])))
    const statementsPerAppend = { ledger: statements(ledgerRuns), baseline: statements(baselineRuns) }
    return {
      workload: step.name,
      store: store,
      facts: step.workload?.facts ?? baselineRuns[0]?.facts ?? 0,
      reps: ledgerRuns.length,
      ledger,
      baseline,
      ratio,
      medianRatio,
      ...(Number.isNaN(statementsPerAppend.ledger) ? {} : { statementsPerAppend }),
      ledgerPerRep,
      baselinePerRep,
      target: describeTarget(target),
      pass,
      problems
    }
  })

const number = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a")

/** The figures as a text table. */
export const table = (rows: ReadonlyArray<Figure>): string => {
  const header = [
    "workload",
    "store",
    "facts/rep",
    "ledger facts/s",
    "baseline facts/s",
    "ratio",
    "median ratio",
    "stmts/append",
    "target",
    "result"
  ]
  const cells = rows.map((row) => [
    row.workload,
    row.store,
    number(row.facts),
    number(row.ledger),
    number(row.baseline),
    row.ratio.toFixed(3),
    row.medianRatio.toFixed(3),
    row.statementsPerAppend === undefined
      ? "—"
      : `${row.statementsPerAppend.ledger.toFixed(1)} vs ${row.statementsPerAppend.baseline.toFixed(1)}`,
    row.target,
    row.problems.length > 0 ? "WRONG" : row.pass === undefined ? "—" : row.pass ? "PASS" : "FAIL"
  ])
  const notes = rows.flatMap((row) => row.problems.map((problem) => `WRONG ${row.store} ${row.workload}: ${problem}`))
  return [textTable(header, cells, new Set([2, 3, 4, 5, 6, 7])), "", ...notes].join("\n").trimEnd()
}
