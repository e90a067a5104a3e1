import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import { cutText } from "../../formats/cutText.js"
import { type Evaluated, type Evaluation, ExpressionFailed, ExpressionOverBudget } from "./ExpressionEvaluator.js"
import { type ExpressionContext, expressionMemoryBytes, type MeterReading, type Stop } from "./expressionContext.js"
import { expressionFile } from "./expressionPrelude.js"

/** How one evaluation ended. */
export type ExpressionOutcome = Evaluated | ExpressionFailed | ExpressionOverBudget

/** Whether an outcome is a value rather than a failure. */
export const isEvaluated = (outcome: ExpressionOutcome): outcome is Evaluated => !("_tag" in outcome)

/**
 * Evaluates one expression synchronously in `opened`, a context that has served no evaluation
 * (workflow-format.md §6.3), and disposes it: `(script)` as the body of a strict arrow function, then the
 * prelude's runner, which pins `Date`, defines the variables and writes the value as JSON. The work meter is the
 * computation sandbox's (decision W11): one checkpoint per interrupt-handler call, counted from the prelude on, in a
 * context no evaluation touched (ADR 0264), so the same expression on the same variables takes the same work every
 * time; the handler also stops at the deadline.
 *
 * A JavaScript exception thrown by the engine itself (the host's stack running out inside QuickJS, a broken
 * module) leaves the module unusable: it propagates, and nothing of the module is freed on that path, since the
 * caller drops the whole module.
 */
export const evaluateInQuickJs = (opened: ExpressionContext, evaluation: Evaluation): ExpressionOutcome => {
  // A passed deadline fails with work 0 however small the expression; a budget the prelude's count already
  // passes, as the handler would have stopped it (ADR 0262).
  const early =
    Date.now() >= evaluation.deadline
      ? pastDeadline(0)
      : opened.preludeWork > evaluation.budget
        ? stopped("work", evaluation.budget + 1, evaluation.budget)
        : undefined
  if (early !== undefined) {
    opened.dispose()
    return early
  }
  const variablesJson = JSON.stringify(variablesOf(evaluation))
  opened.arm(evaluation.budget, evaluation.deadline)
  const { context } = opened
  const handles: Array<QuickJSHandle> = []
  const settle = (outcome: ExpressionOutcome) => {
    for (const handle of handles.reverse()) handle.dispose()
    opened.dispose()
    return outcome
  }
  const failed = (error: QuickJSHandle) => {
    handles.push(error)
    return settle(raised(context, error, opened.meter(), evaluation.budget))
  }
  const expression = context.evalCode(`"use strict";\n(() => (\n${evaluation.script}\n))`, expressionFile)
  if (expression.error !== undefined) return failed(expression.error)
  handles.push(expression.value)
  const variables = context.newString(variablesJson)
  const now = context.newNumber(evaluation.now)
  handles.push(variables, now)
  const answer = context.callFunction(opened.runner, context.undefined, expression.value, variables, now)
  if (answer.error !== undefined) return failed(answer.error)
  handles.push(answer.value)
  return settle(read(context.getString(answer.value), opened.meter(), evaluation.budget))
}

/** The variables as `[name, json]` pairs: each is parsed in the sandbox only when the expression reads it. */
const variablesOf = (evaluation: Evaluation): ReadonlyArray<readonly [string, string]> =>
  Object.entries(evaluation.variables).map(([name, value]) => [name, JSON.stringify(value ?? null)])

/** The runner's answer: `J` the JSON, `U` why the value is not JSON, `E` what the expression threw. */
const read = (answer: string, { work, stop }: MeterReading, budget: number): ExpressionOutcome => {
  if (stop !== undefined) return stopped(stop, work, budget)
  const rest = answer.slice(1)
  switch (answer[0]) {
    case "J":
      return { value: JSON.parse(rest) as unknown, work }
    case "U":
      return new ExpressionFailed({ detail: cutText(`the expression's value cannot be JSON: ${rest}`), work })
    default:
      return thrown(rest.slice(rest.indexOf("\n") + 1), work)
  }
}

/** An exception that escaped the runner: the meter's stop (which no script can catch), memory, or a throw. */
const raised = (
  context: QuickJSContext,
  error: QuickJSHandle,
  { work, stop }: MeterReading,
  budget: number
): ExpressionOutcome => {
  if (stop !== undefined) return stopped(stop, work, budget)
  const described = context.dump(error) as unknown
  if (typeof described === "object" && described !== null) {
    const { name, message } = described as { readonly name?: unknown; readonly message?: unknown }
    return thrown(`${String(name ?? "Error")}: ${String(message ?? "")}`, work)
  }
  return thrown(String(described), work)
}

const thrown = (words: string, work: number): ExpressionOutcome =>
  /^InternalError: out of memory/.test(words)
    ? new ExpressionOverBudget({
        detail: `the expression ran out of memory (${expressionMemoryBytes / 1024 / 1024} MiB)`,
        work
      })
    : new ExpressionFailed({ detail: cutText(`the expression raised ${words}`), work })

const stopped = (stop: Stop, work: number, budget: number): ExpressionOverBudget =>
  stop === "work"
    ? new ExpressionOverBudget({ detail: `the expression used its work budget of ${budget} checkpoints`, work })
    : pastDeadline(work)

const pastDeadline = (work: number) =>
  new ExpressionOverBudget({ detail: "the input's expressions ran past their deadline", work })
