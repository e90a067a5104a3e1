import { Data } from "effect"
import { standardErrorBase } from "../../formats/workflow/WorkflowError.js"
import type { ErrorObject, Fault } from "./RunStateShape.js"

/** The base of the product's problem types (`PROB/`, decision W1). */
export const problemBase = "https://on.auto/problems/"

/** The standard error types the runtime raises (workflow-format.md §9.1, decision W1). */
export type StandardError =
  | "validation"
  | "authorization"
  | "configuration"
  | "runtime"
  | "communication"
  | "timeout"
  | "expression"

/** The URI of a standard error type. */
export const standardType = (name: StandardError): string => `${standardErrorBase}${name}`

/** An error the runtime raises itself at a task (or at the run's pointer). */
export const runtimeFault = (
  name: StandardError,
  status: number,
  instance: string,
  title: string,
  detail?: string
): Fault => ({
  error: { type: standardType(name), status, instance, title, ...(detail === undefined ? {} : { detail }) }
})

/** `ERR/timeout` 408: a task, an attempt or the run ran past its time. */
export const timeoutFault = (instance: string, title: string): Fault => runtimeFault("timeout", 408, instance, title)

/**
 * A task raised (an expression failed, a `raise`, a runtime error): carried on Effect's error channel up to the
 * task, which turns it into its `raised` outcome.
 */
export class Raised extends Data.TaggedError("Raised")<{ readonly fault: Fault }> {}

/** Raises a fault at the task being run. */
export const raise = (fault: Fault): Raised => new Raised({ fault })

/**
 * The run must end now, whatever frames are under way: a limit of §15 that rejects the run at once, never caught by
 * a `try`.
 */
export class Stopped extends Data.TaggedError("Stopped")<{ readonly error: ErrorObject }> {}
