import { Effect, Layer } from "effect"
import { grewTooLarge, type KeptEngine, newKeptEngine } from "../../sandbox/keptEngine.js"
import {
  type Evaluated,
  type Evaluation,
  ExpressionEvaluator,
  type ExpressionFailed,
  ExpressionOverBudget
} from "./ExpressionEvaluator.js"
import { type ExpressionOutcome, evaluateInQuickJs, isEvaluated } from "./evaluateInQuickJs.js"
import { type ExpressionContext, openExpressionContext } from "./expressionContext.js"
import { readPath } from "./pathExpressions.js"

/** The work of an expression that only reads a path: what the sandbox counts for it (one checkpoint). */
const pathWork = 1

/** A QuickJS module, and the expression context it keeps when its build's layout is known (ADR 0264). */
type Engine = KeptEngine<ExpressionContext>

/** A new module, and its kept expression context opened first thing in it. */
const newEngine = (): Promise<Engine> => newKeptEngine(openExpressionContext)

/**
 * Workflow expressions on QuickJS compiled to WebAssembly, in the calling thread (workflow-format.md §6,
 * decisions 0261, 0264): one module loaded with the layer, keeping one context whose module memory is written
 * back, after each evaluation, to what it was right after the prelude (a build of unknown layout opens a new
 * runtime and context per evaluation instead), run synchronously inside the effect. A module is replaced (loaded again, asynchronously; the next evaluation
 * waits for it) when its memory grew past 64 MiB or when the engine threw into the host; the host's stack running
 * out inside QuickJS (a recursion near the 256 KiB limit, begun from a deep host stack) ends the evaluation over
 * budget, like any exhaustion of the host's resources (decision 0262).
 */
export const layer: Layer.Layer<ExpressionEvaluator> = Layer.effect(
  ExpressionEvaluator,
  Effect.gen(function* () {
    let current: Engine | Promise<Engine> = yield* Effect.promise(newEngine)
    const replace = () => {
      const loading = newEngine()
      current = loading
      void loading.then((loaded) => {
        if (current === loading) current = loaded
      })
    }
    const evaluateOn = (
      engine: Engine,
      evaluation: Evaluation
    ): Effect.Effect<Evaluated, ExpressionFailed | ExpressionOverBudget> => {
      let outcome: ExpressionOutcome
      try {
        outcome = evaluateInQuickJs(engine.kept ?? openExpressionContext(engine.module), evaluation)
      } catch (error) {
        replace()
        if (error instanceof RangeError && /call stack/i.test(error.message)) {
          return Effect.fail(
            new ExpressionOverBudget({ detail: "the expression recursed deeper than the host's stack allows", work: 0 })
          )
        }
        return Effect.die(error)
      }
      if (grewTooLarge(engine.module)) replace()
      return isEvaluated(outcome) ? Effect.succeed(outcome) : Effect.fail(outcome)
    }
    /** Evaluates on the current module in the same step that reads it, after waiting for one being loaded. */
    const evaluate = (evaluation: Evaluation): ReturnType<typeof evaluateOn> =>
      Effect.suspend(() => {
        const read = readPath(evaluation.script, evaluation.variables)
        if (read !== undefined) return Effect.succeed({ value: read.value, work: pathWork })
        const now = current
        return now instanceof Promise
          ? Effect.flatMap(
              Effect.promise(() => now),
              () => evaluate(evaluation)
            )
          : evaluateOn(now, evaluation)
      })
    return ExpressionEvaluator.of({ evaluate })
  })
)
