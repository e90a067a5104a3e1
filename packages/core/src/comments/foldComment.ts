import type { Fact } from "../domain/Fact.js"
import type { CommentState } from "./Comment.js"
import type { CommentMade, CommentResolved } from "./commentFacts.js"

/** Folds one fact of a comment's stream into the comment as it stands: the one place its state is derived. */
export const foldComment = (current: CommentState | undefined, fact: Fact, id: string): CommentState | undefined => {
  const { at, by } = fact.metadata
  switch (fact.type) {
    case "comment_made": {
      const made = fact.data as CommentMade
      return {
        id,
        address: made.address,
        text: made.text,
        anchor: made.anchor,
        by,
        by_name: made.by_name,
        at,
        open: true,
        resolved_at: null,
        resolved_by: null,
        resolved_how: null,
        reopened_at: null,
        reopened_by: null
      }
    }
    case "comment_resolved":
      return (
        current && {
          ...current,
          open: false,
          resolved_at: at,
          resolved_by: by,
          resolved_how: (fact.data as CommentResolved).how
        }
      )
    case "comment_reopened":
      return (
        current && {
          ...current,
          open: true,
          resolved_at: null,
          resolved_by: null,
          resolved_how: null,
          reopened_at: at,
          reopened_by: by
        }
      )
    default:
      return current
  }
}
