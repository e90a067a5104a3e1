import { ContentStore } from "@runledger/core"
import { Effect, Layer, Option } from "effect"

/** The content store in memory: texts by owner and digest, for as long as the runtime runs. */
export const layer: Layer.Layer<ContentStore> = Layer.sync(ContentStore, () => {
  const texts = new Map<string, string>()
  const key = (owner: string, sha256: string) => `${owner}\u0000${sha256}`
  return {
    keep: ({ owner, sha256, text }) => Effect.sync(() => void texts.set(key(owner, sha256), text)),
    read: (owner, sha256) => Effect.sync(() => Option.fromNullable(texts.get(key(owner, sha256))))
  }
})
