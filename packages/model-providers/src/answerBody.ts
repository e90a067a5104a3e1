import type { ModelCallFailed } from "@runledger/core"
import { Either } from "effect"
import { failureOf, unreadable } from "./failureOf.js"
import type { ProviderResponse } from "./sendRequest.js"

/**
 * The JSON body of a provider's answer: a non-2xx answer is its failure (`failureOf`), a 2xx body that is not JSON
 * `provider_unavailable`. The caller reads the API's own shape from it.
 */
export const answerBody = <Body>(response: ProviderResponse): Either.Either<Body, ModelCallFailed> => {
  if (response.status < 200 || response.status > 299) return Either.left(failureOf(response))
  try {
    return Either.right(JSON.parse(response.text) as Body)
  } catch {
    return Either.left(unreadable("it is not JSON"))
  }
}
