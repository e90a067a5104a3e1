import { HttpServerResponse } from "@effect/platform"

/**
 * A successful operation's answer: JSON, never cached (the web handler drops the body of a HEAD). An output JSON
 * cannot carry throws, which the handler answers as a defect.
 */
export const jsonResponse = (status: number, output: unknown): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(output, { status, headers: { "cache-control": "no-store" } })
