import type { ModelRequest } from "@runledger/core"
import { costOf } from "./failureOf.js"
import type { ProviderResponse } from "./sendRequest.js"

/**
 * Where an answer came from, read alike from every API: the response's id, the model that answered (the one asked
 * when the body names none) and the cost the entry's cost header reports.
 */
export const answerProvenance = (
  body: { readonly id?: string; readonly model?: string },
  request: ModelRequest,
  response: ProviderResponse
) => ({
  responseId: body.id ?? null,
  model: body.model ?? request.model,
  ...costOf(response.headers, request.provider.costHeader)
})
