import { Effect, type Scope } from "effect"
import type { Contender } from "./contender.js"
import { timed } from "./measure.js"
import type { Step } from "./steps.js"

/** A store's two contenders in one repetition, fresh (new store, new tables), released with the scope. */
export interface Pair {
  readonly ledger: Contender
  readonly baseline: Contender
}

/** One timed run of a step by one side. */
export interface Sample {
  readonly step: string
  readonly rep: number
  readonly side: "ledger" | "baseline"
  readonly facts: number
  readonly seconds: number
  /** Statements sent to the database per append (Postgres append steps). */
  readonly statementsPerAppend?: number
  /** What went wrong, when the side did not read back every fact appended. */
  readonly problem?: string
}

const runStep = (
  step: Step,
  rep: number,
  pair: Pair,
  pageSize: number,
  expectedRead: number,
  statements: (() => number) | undefined
) =>
  Effect.gen(function* () {
    const order = rep % 2 === 0 ? (["baseline", "ledger"] as const) : (["ledger", "baseline"] as const)
    const samples: Array<Sample> = []
    for (const side of order) {
      const contender = pair[side]
      if (step.kind === "append") {
        const workload = step.workload!
        const before = statements?.()
        const [, seconds] = yield* timed(contender.append(workload, step.appenders))
        const sent = statements === undefined || before === undefined ? undefined : statements() - before
        samples.push({
          step: step.name,
          rep,
          side,
          facts: workload.facts,
          seconds,
          ...(sent === undefined ? {} : { statementsPerAppend: sent / workload.appends.length })
        })
      } else {
        const [facts, seconds] = yield* timed(contender.readAll(pageSize))
        const problem =
          facts === expectedRead
            ? undefined
            : facts > expectedRead
              ? `read ${facts} facts, ${expectedRead} appended: it repeated facts`
              : `read ${facts} facts, ${expectedRead} appended: it skipped facts (or a transaction open elsewhere held back its horizon)`
        samples.push({ step: step.name, rep, side, facts, seconds, ...(problem === undefined ? {} : { problem }) })
      }
    }
    return samples
  })

/**
 * Runs `reps` repetitions of the steps, each on a fresh pair, the baseline first on even repetitions and the
 * ledger first on odd ones, and returns every sample. `onRep` reports progress.
 */
export const runRepetitions = <E>(options: {
  readonly open: Effect.Effect<Pair, E, Scope.Scope>
  readonly steps: ReadonlyArray<Step>
  readonly reps: number
  readonly pageSize: number
  readonly onRep?: (rep: number, samples: ReadonlyArray<Sample>) => void
  /** Reads the count of statements sent to the database so far (Postgres). */
  readonly statements?: () => number
}) =>
  Effect.gen(function* () {
    const expectedRead = options.steps.reduce((sum, step) => sum + (step.workload?.facts ?? 0), 0)
    const all: Array<Sample> = []
    for (let rep = 0; rep < options.reps; rep++) {
      const samples = yield* Effect.scoped(
        Effect.flatMap(options.open, (pair) =>
          Effect.map(
            Effect.forEach(options.steps, (step) =>
              runStep(step, rep, pair, options.pageSize, expectedRead, options.statements)
            ),
            (perStep) => perStep.flat()
          )
        )
      )
      options.onRep?.(rep, samples)
      all.push(...samples)
    }
    return all
  })
