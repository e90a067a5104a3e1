import { Context, Data, type Effect } from "effect"

/** One evaluation: the expression's JavaScript (types erased at save), the variables its place provides, and
 * the clock it sees. */
export interface Evaluation {
  /** `Expression.script`: one JavaScript expression, evaluated as `(script)`. */
  readonly script: string
  /** The variables by name with `$` (`$data`, `$input`, `$context`, …), JSON values. */
  readonly variables: Readonly<Record<string, unknown>>
  /** What `Date.now()` and `new Date()` return: the time of the input being applied, ms since the epoch. */
  readonly now: number
  /** Checkpoints this evaluation may use: at most 250, less when the input's 500 are nearly spent. */
  readonly budget: number
  /** Wall-clock ms since the epoch by which the input's expressions must be done (2 s per input). */
  readonly deadline: number
}

/** What an evaluation gave: a JSON value (`undefined` read as `null`, §6.2) and the checkpoints it took. */
export interface Evaluated {
  readonly value: unknown
  readonly work: number
}

/**
 * The expression threw (a stack overflow included), or gave what JSON cannot carry or nested deeper than 512:
 * the task raises `ERR/expression` 400 (workflow-format.md §6.2). `detail` names the offending path where there is one.
 */
export class ExpressionFailed extends Data.TaggedError("ExpressionFailed")<{
  readonly detail: string
  readonly work: number
}> {}

/** The evaluation ran out of work, wall time or memory: the task raises `ERR/runtime` 500 (§6.4). */
export class ExpressionOverBudget extends Data.TaggedError("ExpressionOverBudget")<{
  readonly detail: string
  readonly work: number
}> {}

/**
 * Evaluates workflow expressions in the computation sandbox's rules (workflow-format.md §6.3): a fresh isolated
 * context per expression, no `eval`/`Function`/`Math.random`/timers/`Intl`, `Date` fixed at `now`, work metered in
 * deterministic checkpoints (decision W11). Interpretation never does I/O except through this service.
 */
export class ExpressionEvaluator extends Context.Tag("@runledger/core/ExpressionEvaluator")<
  ExpressionEvaluator,
  {
    readonly evaluate: (evaluation: Evaluation) => Effect.Effect<Evaluated, ExpressionFailed | ExpressionOverBudget>
  }
>() {}
