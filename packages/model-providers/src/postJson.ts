import { HttpClientRequest } from "@effect/platform"

/** A POST of a JSON body to a provider's API, with the entry's headers. */
export const postJson = (address: string, headers: Record<string, string>, body: unknown) =>
  HttpClientRequest.post(address).pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyUnsafeJson(body))
