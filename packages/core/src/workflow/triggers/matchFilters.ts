import { Clock, Effect } from "effect"
import type { Expression } from "../../formats/workflow/Expression.js"
import type { Trigger } from "../../formats/workflow/Trigger.js"
import { holds } from "../engine/evaluation.js"
import { jsonEqual } from "../engine/jsonValues.js"
import type { ExpressionEvaluator } from "../expressions/ExpressionEvaluator.js"

/** Checkpoints one filter expression may take, and one filter in all (workflow-format.md §12.2). */
const expressionBudget = 250
const filterBudget = 500

/** Wall time one filter may take. */
const filterMillis = 2_000

/** The outcome of matching an event: whether a filter matched, and the first failing filter's words, if any. */
export interface FilterMatch {
  readonly matched: boolean
  readonly failure?: string
}

/**
 * Whether any filter of an event trigger matches an event (workflow-format.md §12.2): each filter on its own, every
 * literal attribute equal (JSON deep equality) and every expression holding with the attribute as `$data`, within
 * 250 checkpoints per expression, 500 per filter and 2 s. A filter that fails declines the event and harms no other.
 */
export const matchFilters = (
  evaluator: ExpressionEvaluator["Type"],
  trigger: Extract<Trigger, { kind: "event" }>,
  event: Readonly<Record<string, unknown>>
): Effect.Effect<FilterMatch> =>
  Effect.gen(function* () {
    let failure: string | undefined
    for (const filter of trigger.filters) {
      let work = 0
      let fits = true
      const deadline = Date.now() + filterMillis
      for (const [name, expected] of filter.attributes) {
        const actual = event[name]
        if (expected._tag === "Literal") {
          fits = actual !== undefined && jsonEqual(expected.value, actual)
        } else {
          const outcome = yield* evaluateFilter(
            evaluator,
            expected,
            actual,
            Math.min(expressionBudget, filterBudget - work),
            deadline
          )
          work += outcome.work
          if (outcome.failure !== undefined) failure ??= `${filter.reference}: ${outcome.failure}`
          fits = outcome.holds
        }
        if (!fits) break
      }
      if (fits) return { matched: true, ...(failure === undefined ? {} : { failure }) }
    }
    return { matched: false, ...(failure === undefined ? {} : { failure }) }
  })

const evaluateFilter = (
  evaluator: ExpressionEvaluator["Type"],
  expression: Expression,
  actual: unknown,
  budget: number,
  deadline: number
) =>
  Effect.gen(function* () {
    if (budget <= 0) return { holds: false, work: 0, failure: "the filter spent its 500 checkpoints" }
    const now = yield* Clock.currentTimeMillis
    return yield* evaluator
      .evaluate({ script: expression.script, variables: { $data: actual ?? null }, now, budget, deadline })
      .pipe(
        Effect.map((evaluated) => ({ holds: holds(evaluated.value), work: evaluated.work, failure: undefined })),
        Effect.catchAll((failed) => Effect.succeed({ holds: false, work: failed.work, failure: failed.detail }))
      )
  })
