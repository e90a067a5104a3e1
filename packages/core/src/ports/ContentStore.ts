import { Context, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "./StoreUnavailable.js"

/** A text kept in the content store: whose it is (`<org>/<playbook>`), its SHA-256 in lowercase hex, the text. */
export interface KeptContent {
  readonly owner: string
  readonly sha256: string
  readonly text: string
}

/**
 * Texts kept whole by SHA-256 beside the ledger: the scrubbed arguments and answers of tool calls, which facts
 * name by digest and size only. A text is kept before the fact that names it; keeping the same text again is a
 * no-op. The store holds it as it is given: the caller computes the digest.
 */
export class ContentStore extends Context.Tag("@runledger/core/ContentStore")<
  ContentStore,
  {
    readonly keep: (content: KeptContent) => Effect.Effect<void, StoreUnavailable>
    readonly read: (owner: string, sha256: string) => Effect.Effect<Option.Option<string>, StoreUnavailable>
  }
>() {}
