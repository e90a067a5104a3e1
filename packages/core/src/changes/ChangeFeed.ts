import type { Fact } from "../domain/Fact.js"
import type { GlobalFilter } from "../ports/Ledger.js"
import type { Change } from "./Change.js"

/**
 * What one changes route reads: the facts of the ledger's global order it follows, the stream it reads beside
 * them, which wake-ups may change its answer, and the changes each fact names to the caller.
 */
export interface ChangeFeed<C extends Change = Change> {
  /** The scope its cursors are bound to: a cursor of another feed is not held. */
  readonly scope: string
  /** The facts of the global order it follows. */
  readonly filter: GlobalFilter & { readonly streamPrefix: string }
  /** A stream outside the prefix read beside the global order, by its version (the playbook's own). */
  readonly stream?: string
  /** Whether an append to a stream may name something to the caller. */
  readonly wakes: (stream: string) => boolean
  /** The changes a fact names to the caller: none for what the caller may not read. */
  readonly names: (fact: Fact) => ReadonlyArray<C>
}

/** The fact types of a comment's stream, by name: comments are written beside this module. */
export const commentFactTypes: ReadonlyArray<string> = ["comment_made", "comment_resolved", "comment_reopened"]
