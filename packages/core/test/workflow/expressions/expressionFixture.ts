import { Effect, Either, ManagedRuntime } from "effect"
import {
  type Evaluated,
  type Evaluation,
  ExpressionEvaluator,
  type ExpressionFailed,
  type ExpressionOverBudget
} from "../../../src/workflow/expressions/ExpressionEvaluator.js"
import * as QuickJsExpressions from "../../../src/workflow/expressions/QuickJsExpressions.js"

/** The clock every evaluation below sees unless it says otherwise: 2026-01-02T03:04:05.678Z. */
export const pinnedNow = Date.parse("2026-01-02T03:04:05.678Z")

/** An expression runtime for a test file, ended after its tests. */
export const expressionRuntime = () => ManagedRuntime.make(QuickJsExpressions.layer)

/** Runs one evaluation: the script, `$data` = `{ a: 1, name: "Ada" }` unless given, 250 checkpoints, 10 s. */
export const evaluate = (
  runtime: ReturnType<typeof expressionRuntime>,
  script: string,
  evaluation: Partial<Omit<Evaluation, "script">> = {}
): Promise<Either.Either<Evaluated, ExpressionFailed | ExpressionOverBudget>> =>
  runtime.runPromise(
    Effect.either(
      Effect.flatMap(ExpressionEvaluator, (evaluator) =>
        evaluator.evaluate({
          script,
          variables: { $data: { a: 1, name: "Ada" } },
          now: pinnedNow,
          budget: 250,
          deadline: Date.now() + 10_000,
          ...evaluation
        })
      )
    )
  )

/** The value of an evaluation that must succeed. */
export const valueOf = async (
  runtime: ReturnType<typeof expressionRuntime>,
  script: string,
  evaluation: Partial<Omit<Evaluation, "script">> = {}
): Promise<unknown> => evaluated(await evaluate(runtime, script, evaluation)).value

/** The success of an evaluation, or a thrown test failure naming what it failed with. */
export const evaluated = (result: Either.Either<Evaluated, ExpressionFailed | ExpressionOverBudget>): Evaluated => {
  if (Either.isLeft(result)) throw new Error(`expected a value, got ${result.left._tag}: ${result.left.detail}`)
  return result.right
}

/** The failure of an evaluation, or a thrown test failure naming the value it gave. */
export const failureOf = async (
  runtime: ReturnType<typeof expressionRuntime>,
  script: string,
  evaluation: Partial<Omit<Evaluation, "script">> = {}
): Promise<ExpressionFailed | ExpressionOverBudget> => {
  const result = await evaluate(runtime, script, evaluation)
  if (Either.isRight(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.right.value)}`)
  return result.left
}
