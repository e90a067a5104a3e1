import { type Rejection, reject } from "@runledger/core"
import { Effect } from "effect"

const tooLarge = (limit: number): Rejection =>
  reject("content_too_large", `The body is larger than this operation accepts: ${limit.toLocaleString("en")} bytes.`)

/**
 * Reads a request's body, at most `limit` bytes: refused as `content_too_large` by its Content-Length before
 * reading, or as soon as the bytes read pass the limit. A body that breaks off is `bad_request`.
 */
export const readBytes = (request: Request, limit: number): Effect.Effect<Uint8Array, Rejection> =>
  Effect.gen(function* () {
    const declared = request.headers.get("content-length")
    if (declared !== null && Number(declared) > limit) return yield* Effect.fail(tooLarge(limit))
    if (request.body === null) return new Uint8Array()
    const reader = request.body.getReader()
    const chunks: Array<Uint8Array> = []
    let size = 0
    for (;;) {
      const chunk = yield* Effect.tryPromise({
        try: () => reader.read(),
        catch: () => reject("bad_request", "The body broke off before its end.")
      })
      if (chunk.done) break
      size += chunk.value.byteLength
      if (size > limit) {
        yield* Effect.promise(() => reader.cancel().catch(() => undefined))
        return yield* Effect.fail(tooLarge(limit))
      }
      chunks.push(chunk.value)
    }
    const bytes = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      bytes.set(chunk, offset)
      offset += chunk.byteLength
    }
    return bytes
  })
