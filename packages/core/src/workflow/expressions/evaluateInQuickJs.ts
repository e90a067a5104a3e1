import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { cutText } from "../../formats/cutText.js"
import { type Evaluated, type Evaluation, ExpressionFailed, ExpressionOverBudget } from "./ExpressionEvaluator.js"
import { expressionFile, expressionPrelude } from "./expressionPrelude.js"

/** Bytes of QuickJS memory one expression's runtime may allocate (workflow-format.md §6.4). */
export const expressionMemoryBytes = 64 * 1024 * 1024

/** Bytes of QuickJS stack one expression may use (§6.4, in-thread): ≈1,480 self-calls. */
export const expressionStackBytes = 256 * 1024

/** How one evaluation ended. */
export type ExpressionOutcome = Evaluated | ExpressionFailed | ExpressionOverBudget

/** Whether an outcome is a value rather than a failure. */
export const isEvaluated = (outcome: ExpressionOutcome): outcome is Evaluated => !("_tag" in outcome)

/** What stopped the interrupt handler's run, if it did. */
type Stop = "work" | "deadline"

/**
 * Evaluates one expression synchronously in a new runtime and context of `module` (workflow-format.md §6.3): the
 * expression prelude, then `(script)` as the body of a strict arrow function, then the runner, which pins `Date`,
 * defines the variables and writes the value as JSON. The work meter is the computation sandbox's (decision W11):
 * one checkpoint per interrupt-handler call, counted from the prelude on, in a runtime nothing ran in before, so
 * the same expression on the same variables takes the same work every time; the handler also stops at the
 * deadline. Memory and stack are bounded per runtime.
 *
 * A JavaScript exception thrown by the engine itself (the host's stack running out inside QuickJS, a broken
 * module) leaves the module unusable: it propagates, and nothing of the module is freed on that path, since the
 * caller drops the whole module.
 */
export const evaluateInQuickJs = (module: QuickJSWASMModule, evaluation: Evaluation): ExpressionOutcome => {
  if (Date.now() >= evaluation.deadline) return pastDeadline(0)
  const variablesJson = JSON.stringify(variablesOf(evaluation))
  const runtime = module.newRuntime()
  runtime.setMemoryLimit(expressionMemoryBytes)
  runtime.setMaxStackSize(expressionStackBytes)
  let work = 0
  let stop: Stop | undefined
  runtime.setInterruptHandler(() => {
    work++
    if (work > evaluation.budget) stop ??= "work"
    else if (Date.now() >= evaluation.deadline) stop ??= "deadline"
    return stop !== undefined
  })
  const outcome = evaluateIn(runtime, evaluation, variablesJson, () => ({ work, stop }))
  runtime.dispose()
  return outcome
}

/** The meter's reading: checkpoints so far and what stopped the run, if anything did. */
type Meter = () => { readonly work: number; readonly stop: Stop | undefined }

const evaluateIn = (
  runtime: QuickJSRuntime,
  evaluation: Evaluation,
  variablesJson: string,
  meter: Meter
): ExpressionOutcome => {
  const context = runtime.newContext()
  const handles: Array<QuickJSHandle> = []
  const settle = (outcome: ExpressionOutcome) => {
    for (const handle of handles.reverse()) handle.dispose()
    context.dispose()
    return outcome
  }
  const failed = (error: QuickJSHandle) => {
    handles.push(error)
    return settle(raised(context, error, meter, evaluation.budget))
  }
  const prelude = context.evalCode(expressionPrelude, "prelude.js")
  if (prelude.error !== undefined) return failed(prelude.error)
  handles.push(prelude.value)
  const runner = context.callFunction(prelude.value, context.undefined)
  if (runner.error !== undefined) return failed(runner.error)
  handles.push(runner.value)
  const expression = context.evalCode(`"use strict";\n(() => (\n${evaluation.script}\n))`, expressionFile)
  if (expression.error !== undefined) return failed(expression.error)
  handles.push(expression.value)
  const variables = context.newString(variablesJson)
  const now = context.newNumber(evaluation.now)
  handles.push(variables, now)
  const answer = context.callFunction(runner.value, context.undefined, expression.value, variables, now)
  if (answer.error !== undefined) return failed(answer.error)
  handles.push(answer.value)
  return settle(read(context.getString(answer.value), meter, evaluation.budget))
}

/** The variables as `[name, json]` pairs: each is parsed in the sandbox only when the expression reads it. */
const variablesOf = (evaluation: Evaluation): ReadonlyArray<readonly [string, string]> =>
  Object.entries(evaluation.variables).map(([name, value]) => [name, JSON.stringify(value ?? null)])

/** The runner's answer: `J` the JSON, `U` why the value is not JSON, `E` what the expression threw. */
const read = (answer: string, meter: Meter, budget: number): ExpressionOutcome => {
  const { work, stop } = meter()
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
const raised = (context: QuickJSContext, error: QuickJSHandle, meter: Meter, budget: number): ExpressionOutcome => {
  const { work, stop } = meter()
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
