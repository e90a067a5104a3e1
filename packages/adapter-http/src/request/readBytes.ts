import { HttpServerRequest } from "@effect/platform"
import { type Rejection, reject } from "@runledger/core"
import { Chunk, Effect, Stream } from "effect"

const tooLarge = (limit: number): Rejection =>
  reject("content_too_large", `The body is larger than this operation accepts: ${limit.toLocaleString("en")} bytes.`)

const brokeOff = (): Rejection => reject("bad_request", "The body broke off before its end.")

/**
 * Reads a request's body, at most `limit` bytes: refused as `content_too_large` by its Content-Length before
 * reading, or as soon as the bytes read pass the limit, which stops the stream. A body that breaks off is
 * `bad_request`.
 */
export const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Uint8Array, Rejection> =>
  Effect.gen(function* () {
    const declared = request.headers["content-length"]
    if (declared !== undefined && Number(declared) > limit) return yield* Effect.fail(tooLarge(limit))
    // The web request tells a request without a body, which the platform's stream would fail, from an empty one.
    if ((yield* Effect.mapError(HttpServerRequest.toWeb(request), brokeOff)).body === null) return new Uint8Array()
    const chunks = yield* request.stream.pipe(
      Stream.mapError(brokeOff),
      Stream.mapAccumEffect(0, (size, chunk) =>
        size + chunk.byteLength > limit
          ? Effect.fail(tooLarge(limit))
          : Effect.succeed([size + chunk.byteLength, chunk] as const)
      ),
      Stream.runCollect
    )
    return Buffer.concat(Chunk.toReadonlyArray(chunks))
  })
