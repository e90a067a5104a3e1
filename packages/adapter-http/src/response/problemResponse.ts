import { HttpServerResponse } from "@effect/platform"
import { problemDocument, type Rejection } from "@runledger/core"

/** Kinds of `unavailable` no wait resolves, so they never carry Retry-After (HTTP "When to retry"). */
const unretriableKinds = new Set(["tools_unfinished", "tool_not_offered", "tool_not_read_only", "model_not_offered"])

/** The seconds a client should wait before sending the same request again, where a retry may resolve it. */
export const retryAfterOf = (rejection: Rejection): number | undefined =>
  rejection.reason === "unavailable" &&
  rejection.retryAfter !== undefined &&
  !(rejection.kind !== undefined && unretriableKinds.has(rejection.kind)) &&
  rejection.because !== "stalled"
    ? Math.max(0, Math.ceil(rejection.retryAfter))
    : undefined

/** A rejection as an RFC 9457 problem response, with its status, and Retry-After where a retry may help. */
export const problemResponse = (
  rejection: Rejection,
  headers: Readonly<Record<string, string>> = {}
): HttpServerResponse.HttpServerResponse => {
  const retryAfter = retryAfterOf(rejection)
  return HttpServerResponse.unsafeJson(problemDocument(rejection), {
    status: rejection.status,
    contentType: "application/problem+json",
    headers: retryAfter === undefined ? headers : { ...headers, "retry-after": String(retryAfter) }
  })
}
