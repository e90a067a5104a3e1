import type { Rejection } from "./Rejection.js"

/** The base of every problem type URI. */
export const problemTypeBase = "https://on.auto/problems/"

/** Kinds that name a problem type of their own (HTTP "Responses and errors"). */
const kindsWithTypes = new Set([
  "tools_called",
  "effect_unknown",
  "credits_exhausted",
  "license_required",
  "license_invalid",
  "account_closed",
  "cursor_not_held",
  "tools_unfinished"
])

/** The title of each problem type. */
const titles: Record<string, string> = {
  bad_request: "Bad request",
  unauthenticated: "Unauthenticated",
  forbidden: "Forbidden",
  origin_not_allowed: "Origin not allowed",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  cancelled: "Cancelled",
  unanswered: "Unanswered",
  content_too_large: "Content too large",
  unsupported_media_type: "Unsupported media type",
  range_not_satisfiable: "Range not satisfiable",
  invalid_input: "Invalid input",
  internal: "Internal error",
  unavailable: "Unavailable",
  tools_called: "Tools called",
  effect_unknown: "Effect unknown",
  credits_exhausted: "Credits exhausted",
  license_required: "License required",
  license_invalid: "License invalid",
  account_closed: "Account closed",
  cursor_not_held: "Cursor not held",
  tools_unfinished: "Tools unfinished",
  client_closed_request: "Client closed request"
}

/** An RFC 9457 problem document as the seeds shape it. */
export interface ProblemDocument {
  readonly type: string
  readonly title: string
  readonly status: number
  readonly detail: string
  readonly reason: string
  readonly errors?: ReadonlyArray<{ readonly pointer: string; readonly detail: string }>
  readonly kind?: string
  readonly because?: string
  readonly instance?: string
  readonly [extra: string]: unknown
}

/** The problem type name of a rejection: its kind where the kind has a type of its own, else its reason. */
export const problemTypeName = (rejection: Pick<Rejection, "reason" | "kind">): string =>
  rejection.kind !== undefined && kindsWithTypes.has(rejection.kind) ? rejection.kind : rejection.reason

/** The title of a problem type name. */
export const problemTitle = (typeName: string): string => titles[typeName] ?? typeName.replaceAll("_", " ")

/** The `instance` of a 500's problem: the incident reference that names the server's log entry (HTTP seed). */
export const incidentInstance = (incident: string): string => `urn:runledger:incident:${incident}`

/**
 * The problem document of a rejection, as HTTP answers it and MCP puts it in a failed tool result. A rejection
 * carrying an incident (a run that failed inside the runtime) names it as its `instance`.
 */
export const problemDocument = (rejection: Rejection, instance?: string): ProblemDocument => {
  const typeName = problemTypeName(rejection)
  const { incident, ...extras } = rejection.extras ?? {}
  const reference = instance ?? (typeof incident === "string" ? incidentInstance(incident) : undefined)
  return {
    ...extras,
    type: `${problemTypeBase}${typeName}`,
    title: problemTitle(typeName),
    status: rejection.status,
    detail: rejection.detail,
    reason: rejection.reason,
    ...(rejection.errors === undefined
      ? {}
      : { errors: rejection.errors.map(({ pointer, detail }) => ({ detail, pointer })) }),
    ...(rejection.kind === undefined ? {} : { kind: rejection.kind }),
    ...(rejection.because === undefined ? {} : { because: rejection.because }),
    ...(reference === undefined ? {} : { instance: reference })
  }
}
