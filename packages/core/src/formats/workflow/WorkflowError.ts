import type { Template } from "./Template.js"

/** The base of the standard error types (decision W1): the DSL 1.0 URIs. */
export const standardErrorBase = "https://serverlessworkflow.io/spec/1.0.0/errors/"

/** The base the earlier reference used for the same types, read as the standard one in catch filters. */
export const referenceErrorBase = "https://open-workflow-specification.org/spec/1.0.0/errors/"

/** The standard error types, by short name (decision W1). */
export const standardErrors = [
  "validation",
  "authentication",
  "authorization",
  "configuration",
  "runtime",
  "communication",
  "timeout",
  "expression"
] as const

/** The error a `raise` raises (workflow-format.md §3.2, §9.1): fields that may be expressions, and the name of
 * the `use.errors` entry it came from. */
export interface ErrorDefinition {
  readonly name?: string
  readonly error: Template
}

/**
 * What an error must equal to be caught (`catch.errors.with`, §9.2, decision W7): any of `type`, `status`,
 * `instance`, `title`, `details` (the error's `detail`) and `kind`. A standard type's short name, or the
 * reference's URI for it, is read as its standard URI.
 */
export interface ErrorFilter {
  readonly type?: string
  readonly status?: number
  readonly instance?: string
  readonly title?: string
  readonly details?: string
  readonly kind?: string
}
