import { HttpClient, type HttpClientRequest } from "@effect/platform"
import { ModelCallFailed } from "@runledger/core"
import { Duration, Effect } from "effect"

/** A provider's HTTP answer, read whole: its status, its headers and its body as text. */
export interface ProviderResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

/**
 * Sends one request to a provider within `timeoutMs` and reads the whole answer. A connection that fails is
 * `provider_unavailable`; a request past its time is `timed_out` (the request is aborted).
 */
export const sendRequest = (
  request: HttpClientRequest.HttpClientRequest,
  timeoutMs: number
): Effect.Effect<ProviderResponse, ModelCallFailed, HttpClient.HttpClient> =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    client.execute(request).pipe(
      Effect.flatMap((response) =>
        Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))
      ),
      Effect.scoped,
      Effect.mapError(
        (error) =>
          new ModelCallFailed({
            kind: "provider_unavailable",
            providerMessage: `the provider could not be reached: ${error.message}`
          })
      ),
      Effect.timeoutFail({
        duration: Duration.millis(Math.max(1, timeoutMs)),
        onTimeout: () =>
          new ModelCallFailed({ kind: "timed_out", providerMessage: `no answer within ${Math.round(timeoutMs)} ms` })
      })
    )
  )
