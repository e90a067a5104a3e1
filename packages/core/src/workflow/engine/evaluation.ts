import { Effect, Either } from "effect"
import { type Duration, durationMilliseconds } from "../../formats/workflow/Duration.js"
import type { Expression } from "../../formats/workflow/Expression.js"
import type { Template } from "../../formats/workflow/Template.js"
import { type Raised, raise, runtimeFault } from "./faults.js"
import { expressionWorkBudget, inputWorkBudget, type Machine } from "./Machine.js"

/** The variables an expression sees, by name with `$`. */
export type Variables = Readonly<Record<string, unknown>>

/**
 * Evaluates one expression with the input's time as the clock, within what is left of the input's work budget
 * (workflow-format.md §6.4). A failing expression raises `ERR/expression` 400 at `instance`, an expression over
 * budget `ERR/runtime` 500.
 */
export const evaluate = (
  machine: Machine,
  expression: Expression,
  variables: Variables,
  instance: string
): Effect.Effect<unknown, Raised> => {
  const left = inputWorkBudget - machine.work
  if (left <= 0) {
    return Effect.fail(
      raise(
        runtimeFault("runtime", 500, instance, "Expression work over budget", "this input spent its 500 checkpoints")
      )
    )
  }
  return machine.evaluator
    .evaluate({
      script: expression.script,
      variables,
      now: machine.now,
      budget: Math.min(expressionWorkBudget, left),
      deadline: machine.deadline
    })
    .pipe(
      Effect.tap((evaluated) =>
        Effect.sync(() => {
          machine.work += evaluated.work
        })
      ),
      Effect.map((evaluated) => evaluated.value ?? null),
      Effect.catchAll((failure) => {
        machine.work += failure.work
        return Effect.fail(
          raise(
            failure._tag === "ExpressionFailed"
              ? runtimeFault(
                  "expression",
                  400,
                  instance,
                  "An expression failed",
                  `${expression.pointer}: ${failure.detail}`
                )
              : runtimeFault(
                  "runtime",
                  500,
                  instance,
                  "Expression work over budget",
                  `${expression.pointer}: ${failure.detail}`
                )
          )
        )
      })
    )
}

/** Evaluates a template part by part: literals copied, expressions evaluated (§6.1). */
export const evaluateTemplate = (
  machine: Machine,
  template: Template,
  variables: Variables,
  instance: string
): Effect.Effect<unknown, Raised> => {
  switch (template._tag) {
    case "Literal":
      return Effect.succeed(template.value)
    case "Expression":
      return evaluate(machine, template, variables, instance)
    case "List":
      return Effect.forEach(template.items, (item) => evaluateTemplate(machine, item, variables, instance))
    case "Mapping":
      return Effect.map(
        Effect.forEach(template.entries, ([key, item]) =>
          Effect.map(evaluateTemplate(machine, item, variables, instance), (value) => [key, value] as const)
        ),
        (entries) => {
          const object: Record<string, unknown> = {}
          for (const [key, value] of entries) object[key] = value
          return object
        }
      )
  }
}

/** Whether a condition's value holds: anything but `false` and `null` (§6.2). */
export const holds = (value: unknown): boolean => value !== false && value !== null && value !== undefined

/** Evaluates a condition (§6.2). */
export const evaluateCondition = (
  machine: Machine,
  expression: Expression,
  variables: Variables,
  instance: string
): Effect.Effect<boolean, Raised> => Effect.map(evaluate(machine, expression, variables, instance), holds)

/**
 * A duration in ms (§11): fixed at save, or computed; a computed invalid duration, or one longer than the run may
 * last, raises `ERR/configuration` 400.
 */
export const evaluateDuration = (
  machine: Machine,
  duration: Duration,
  variables: Variables,
  instance: string
): Effect.Effect<number, Raised> => {
  if (duration._tag === "Fixed") return Effect.succeed(duration.milliseconds)
  return Effect.flatMap(evaluate(machine, duration, variables, instance), (value) => {
    const read = durationMilliseconds(value)
    const longest = machine.state.limits.endsBy - machine.state.startedAt
    if (Either.isLeft(read)) {
      return Effect.fail(
        raise(runtimeFault("configuration", 400, instance, "Invalid duration", `${duration.pointer}: ${read.left}`))
      )
    }
    if (read.right > longest) {
      return Effect.fail(
        raise(
          runtimeFault(
            "configuration",
            400,
            instance,
            "Invalid duration",
            `${duration.pointer}: ${read.right} ms is longer than the run may last`
          )
        )
      )
    }
    return Effect.succeed(read.right)
  })
}
