/**
 * A response with the headers every response of the handler carries: its request id (`x-request-id`) and
 * `Cross-Origin-Resource-Policy: same-origin`, unless the response set its own. The body is passed on as a stream.
 */
export const withCommonHeaders = (response: Response, requestId: string): Response => {
  const headers = new Headers(response.headers)
  if (!headers.has("x-request-id")) headers.set("x-request-id", requestId)
  if (!headers.has("cross-origin-resource-policy")) headers.set("cross-origin-resource-policy", "same-origin")
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
