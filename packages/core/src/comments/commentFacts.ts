import type { Anchor } from "./commentFields.js"

/** The facts of a comment, on its own stream (`commentStream`); who acted and when are in their metadata. */
export type CommentFact =
  | { readonly type: "comment_made"; readonly data: CommentMade }
  | { readonly type: "comment_resolved"; readonly data: CommentResolved }
  | { readonly type: "comment_reopened"; readonly data: Record<string, never> }

/** A comment was made: what it is about, what the person said, where they dropped it, and their name. */
export interface CommentMade {
  readonly address: string
  readonly text: string
  readonly anchor: Anchor | null
  readonly by_name: string
}

/** A comment was resolved, acted on or dismissed. */
export interface CommentResolved {
  readonly how: "acted" | "dismissed"
}

/** Every comment fact type, for the projection and the stream's readers. */
export const commentFactTypes: ReadonlyArray<CommentFact["type"]> = [
  "comment_made",
  "comment_resolved",
  "comment_reopened"
]
