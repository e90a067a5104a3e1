import { HttpServerResponse } from "@effect/platform"

/**
 * A response with the headers every response of the handler carries: its request id (`x-request-id`) and
 * `Cross-Origin-Resource-Policy: same-origin`, unless the response set its own.
 */
export const withCommonHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  requestId: string
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.setHeaders(response, {
    "x-request-id": response.headers["x-request-id"] ?? requestId,
    "cross-origin-resource-policy": response.headers["cross-origin-resource-policy"] ?? "same-origin"
  })
