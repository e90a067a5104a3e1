import { HttpServerResponse } from "@effect/platform"

/** A successful operation's answer: JSON, never cached (the web handler drops the body of a HEAD). */
export const jsonResponse = (status: number, output: unknown) =>
  HttpServerResponse.json(output, { status, headers: { "cache-control": "no-store" } })
