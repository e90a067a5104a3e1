import type { HttpServerResponse } from "@effect/platform"
import { reject } from "@runledger/core"
import { problemResponse } from "./problemResponse.js"

/** 405 for a path that does not take the request's method, with the `Allow` header of those it takes. */
export const methodNotAllowed = (
  method: string,
  allow: ReadonlyArray<string>,
  headers: Readonly<Record<string, string>> = {}
): HttpServerResponse.HttpServerResponse =>
  problemResponse(reject("method_not_allowed", `This path does not take ${method}; it takes ${allow.join(", ")}.`), {
    ...headers,
    allow: allow.join(", ")
  })
