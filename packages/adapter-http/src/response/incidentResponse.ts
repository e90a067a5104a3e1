import { HttpServerResponse } from "@effect/platform"
import { incidentInstance, problemDocument, reject } from "@runledger/core"

/**
 * The answer to a defect (HTTP "Responses and errors"): it is logged once to stderr under the request's id, and the
 * caller gets `internal` with that id as the problem's `instance` (the `x-request-id` header carries it too).
 */
export const incidentResponse = (requestId: string, defect: string): HttpServerResponse.HttpServerResponse => {
  console.error(`[runledger] incident ${requestId}: ${defect}`)
  const rejection = reject(
    "internal",
    `Something went wrong inside the server. Quote the incident ${requestId} when reporting it.`
  )
  return HttpServerResponse.unsafeJson(problemDocument(rejection, incidentInstance(requestId)), {
    status: 500,
    contentType: "application/problem+json"
  })
}
