import { Schema } from "effect"

/** One issue of a refused input: where it is (a JSON pointer) and what is wrong there. */
export const InputIssue = Schema.Struct({
  pointer: Schema.String,
  detail: Schema.String
}).annotations({ identifier: "InputIssue" })
export type InputIssue = typeof InputIssue.Type

/** The reasons a caller can be refused with, each with its HTTP status. */
export const ReasonStatus = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  cancelled: 409,
  unanswered: 410,
  content_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  invalid_input: 422,
  internal: 500,
  unavailable: 503
} as const

/** A reason a rejection carries. */
export type Reason = keyof typeof ReasonStatus
export const Reason = Schema.Literal(...(Object.keys(ReasonStatus) as Array<Reason>))

/**
 * The one failure shape a caller sees (HTTP "Responses and errors"): a reason, its words, and the optional
 * kind, because and issues. Extras the seeds name (resolve_at, lifts_at, …) travel in `extras`.
 */
export class Rejection extends Schema.TaggedError<Rejection>()("Rejection", {
  reason: Reason,
  detail: Schema.String,
  kind: Schema.optional(Schema.String),
  because: Schema.optional(Schema.String),
  errors: Schema.optional(Schema.Array(InputIssue)),
  extras: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  /** Seconds after which the same request may succeed; only for unavailable ("When to retry"). */
  retryAfter: Schema.optional(Schema.Number)
}) {
  /** The HTTP status of this rejection. */
  get status(): number {
    return ReasonStatus[this.reason]
  }
}

/** Builds a rejection without the ceremony of the constructor. */
export const reject = (
  reason: Reason,
  detail: string,
  more: Partial<Pick<Rejection, "kind" | "because" | "errors" | "extras" | "retryAfter">> = {}
): Rejection => new Rejection({ reason, detail, ...more })

/** `invalid_input` with one issue per pointer; the detail joins the issues' words. */
export const invalidInput = (issues: ReadonlyArray<{ pointer: string; detail: string }>, kind?: string): Rejection =>
  reject("invalid_input", issues.map((issue) => issue.detail).join(" ") || "The input does not fit.", {
    errors: issues.map(({ pointer, detail }) => ({ pointer, detail })),
    ...(kind === undefined ? {} : { kind })
  })

/** `invalid_input` at one pointer. */
export const invalidAt = (pointer: string, detail: string): Rejection => invalidInput([{ pointer, detail }])

/** `not_found` with its words. */
export const notFound = (detail: string): Rejection => reject("not_found", detail)

/** `conflict`, with an optional kind. */
export const conflict = (detail: string, kind?: string): Rejection =>
  reject("conflict", detail, kind === undefined ? {} : { kind })

/** `forbidden` with its words. */
export const forbidden = (detail: string): Rejection => reject("forbidden", detail)

/** `bad_request` with its words. */
export const badRequest = (detail: string): Rejection => reject("bad_request", detail)

/** `conflict` for a change that met another change: the seeds' "send it again". */
export const concurrentChange = (what: string): Rejection =>
  conflict(`This change met another change to ${what} at the same moment; send it again.`)
