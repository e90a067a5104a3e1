import { type Rejection, reject } from "@runledger/core"
import { Effect, Either } from "effect"
import { bodyLimit } from "./bodyLimit.js"
import { parseMediaType } from "./mediaType.js"
import { readBytes } from "./readBytes.js"

const unsupported = (detail: string): Rejection => reject("unsupported_media_type", detail)
const malformed = (detail: string): Rejection => reject("bad_request", detail)

/** Refuses a Content-Type other than `application/json` in UTF-8 (a charset parameter, if any, is utf-8). */
const checkContentType = (header: string): Effect.Effect<void, Rejection> => {
  const { type, parameters } = parseMediaType(header)
  const charset = parameters.get("charset")
  if (type !== "application/json")
    return Effect.fail(unsupported(`Send the body as application/json, not ${type || "an empty media type"}.`))
  if (charset !== undefined && charset.toLowerCase() !== "utf-8")
    return Effect.fail(unsupported(`Send the body in UTF-8, not in ${charset}.`))
  return Effect.void
}

/** Refuses a compressed body: any Content-Encoding but identity. */
const checkEncoding = (header: string | null): Effect.Effect<void, Rejection> =>
  header === null || header.split(",").every((coding) => coding.trim().toLowerCase() === "identity")
    ? Effect.void
    : Effect.fail(unsupported(`Send the body uncompressed; Content-Encoding ${header} is not accepted.`))

/** Parses UTF-8 JSON text; invalid UTF-8 is malformed JSON text (RFC 8259 §8.1), so both are `bad_request`. */
const parseJson = (bytes: Uint8Array): Either.Either<unknown, Rejection> =>
  Either.try({
    try: () => new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    catch: () => malformed("The body is not valid UTF-8.")
  }).pipe(
    Either.flatMap((text) =>
      Either.try({ try: (): unknown => JSON.parse(text), catch: () => malformed("The body is not valid JSON.") })
    )
  )

/**
 * The JSON object a command's body holds (HTTP "Requests and access"): uncompressed UTF-8 JSON, sent as
 * application/json, at most 1 MiB. An empty body, with or without a Content-Type, is the empty object.
 */
export const jsonBody = (request: Request): Effect.Effect<Record<string, unknown>, Rejection> =>
  Effect.gen(function* () {
    yield* checkEncoding(request.headers.get("content-encoding"))
    const contentType = request.headers.get("content-type")
    if (contentType !== null) yield* checkContentType(contentType)
    const bytes = yield* readBytes(request, bodyLimit)
    if (bytes.byteLength === 0) return {}
    if (contentType === null)
      return yield* Effect.fail(unsupported("Send the body with Content-Type: application/json."))
    const value = yield* parseJson(bytes)
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return yield* Effect.fail(malformed("The body is not a JSON object."))
    return value as Record<string, unknown>
  })
