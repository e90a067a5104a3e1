import type { Projection } from "../ports/Views.js"
import type { CommentState } from "./Comment.js"
import { type CommentScope, scopeOfStream } from "./CommentScope.js"
import { commentFactTypes } from "./commentFacts.js"
import { foldComment } from "./foldComment.js"

/** The view of comments: one document per comment, a partition per playbook and one per organization. */
export const commentsView = "comments"

/** The partition of a scope's comments: `<org>/<playbook>` for a playbook's, `<org>` for the organization's own. */
export const commentsPartition = (scope: CommentScope): string =>
  scope.kind === "playbook" ? `${scope.org}/${scope.playbook}` : scope.org

/** The first character of the sort key of open comments, and of resolved ones. */
export const commentStateMark = { open: "o", resolved: "r" } as const

/**
 * A comment's sort key: open or resolved, then when it was made, so a list of either state reads newest first
 * without looking at the other.
 */
export const commentSort = (comment: CommentState): string =>
  `${comment.open ? commentStateMark.open : commentStateMark.resolved} ${comment.at}`

/** Folds comment facts into the `comments` view. */
export const commentsProjection: Projection = {
  view: commentsView,
  types: commentFactTypes,
  keys: (fact) => {
    const found = scopeOfStream(fact.metadata.stream)
    return found === undefined ? [] : [{ view: commentsView, partition: commentsPartition(found.scope), id: found.id }]
  },
  apply: (current, fact, key) => {
    const next = foldComment(current?.data as CommentState | undefined, fact, key.id)
    return next === undefined ? undefined : { id: key.id, sort: commentSort(next), data: next }
  }
}
