import { createHash } from "node:crypto"
import { Effect, type Layer, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ContentStore } from "../ports/ContentStore.js"
import { uuidv7 } from "../ports/Ids.js"

/**
 * The conformance suite of the `ContentStore` port: texts kept by digest per owner, read back whole (one larger
 * than a 1 MiB chunk among them), kept twice without harm, and never read across owners.
 */
export const contentConformance = (name: string, store: Layer.Layer<ContentStore, unknown>): void => {
  describe(`Content store conformance: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<ContentStore, unknown>
    beforeAll(() => {
      runtime = ManagedRuntime.make(store)
    })
    afterAll(() => runtime.dispose())
    const owner = () => `conformance/${uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10)))}`
    const digest = (text: string) => createHash("sha256").update(text).digest("hex")
    const run = <A, E>(effect: Effect.Effect<A, E, ContentStore>) => runtime.runPromise(effect)

    it("reads back a kept text whole, by its owner and digest", () =>
      run(
        Effect.gen(function* () {
          const content = yield* ContentStore
          const mine = owner()
          const text = JSON.stringify({ id: "inv-2041", note: "é ✓ 😀" })
          yield* content.keep({ owner: mine, sha256: digest(text), text })
          expect(yield* content.read(mine, digest(text))).toEqual(Option.some(text))
        })
      ))

    it("keeps a text larger than one chunk of 1 MiB whole", () =>
      run(
        Effect.gen(function* () {
          const content = yield* ContentStore
          const mine = owner()
          const text = "ab😀".repeat(400_000)
          yield* content.keep({ owner: mine, sha256: digest(text), text })
          const read = yield* content.read(mine, digest(text))
          expect(Option.getOrThrow(read).length).toBe(text.length)
          expect(Option.getOrThrow(read) === text).toBe(true)
        })
      ))

    it("keeps the same text twice as once", () =>
      run(
        Effect.gen(function* () {
          const content = yield* ContentStore
          const mine = owner()
          const text = "twice"
          yield* content.keep({ owner: mine, sha256: digest(text), text })
          yield* content.keep({ owner: mine, sha256: digest(text), text })
          expect(yield* content.read(mine, digest(text))).toEqual(Option.some(text))
        })
      ))

    it("reads nothing for a digest it did not keep, or one kept for another owner", () =>
      run(
        Effect.gen(function* () {
          const content = yield* ContentStore
          const mine = owner()
          const text = "only mine"
          yield* content.keep({ owner: mine, sha256: digest(text), text })
          expect(Option.isNone(yield* content.read(owner(), digest(text)))).toBe(true)
          expect(Option.isNone(yield* content.read(mine, digest("never kept")))).toBe(true)
        })
      ))
  })
}
