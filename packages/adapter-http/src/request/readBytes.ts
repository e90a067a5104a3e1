import { type Rejection, reject } from "@runledger/core"
import { Effect, Either } from "effect"

const tooLarge = (limit: number): Rejection =>
  reject("content_too_large", `The body is larger than this operation accepts: ${limit.toLocaleString("en")} bytes.`)

const brokeOff = (): Rejection => reject("bad_request", "The body broke off before its end.")

/** Reads a body stream to its end, at most `limit` bytes; past the limit the stream is cancelled. */
const readStream = async (
  body: ReadableStream<Uint8Array>,
  limit: number
): Promise<Either.Either<Uint8Array, Rejection>> => {
  const reader = body.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) {
        reader.cancel().catch(() => undefined)
        return Either.left(tooLarge(limit))
      }
      chunks.push(value)
    }
  } catch {
    return Either.left(brokeOff())
  }
  return Either.right(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
}

/**
 * Reads a request's body, at most `limit` bytes: refused as `content_too_large` by its Content-Length before
 * reading, or as soon as the bytes read pass the limit, which stops the stream. A body that breaks off is
 * `bad_request`. A request without a body (a GET) reads as no bytes.
 */
export const readBytes = (request: Request, limit: number): Effect.Effect<Uint8Array, Rejection> => {
  const declared = request.headers.get("content-length")
  if (declared !== null && Number(declared) > limit) return Effect.fail(tooLarge(limit))
  const body = request.body
  if (body === null) return Effect.succeed(new Uint8Array())
  return Effect.flatten(Effect.promise(() => readStream(body, limit)))
}
