import { Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { CommentState } from "./Comment.js"
import type { CommentScope } from "./CommentScope.js"
import { commentStateMark, commentsPartition, commentsView } from "./commentsProjection.js"

/** A place in a scope's comments: the sort key and id of the last comment a page looked at. */
export interface CommentPosition {
  readonly sort: string
  readonly id: string
}

/** What a page of comments holds, and where the next one starts when there is more. */
export interface CommentPageRead {
  readonly comments: ReadonlyArray<CommentState>
  readonly next: CommentPosition | undefined
}

/**
 * Reads one page of a scope's open or resolved comments, newest first by `at`, keeping those `keep` takes: it
 * reads on until the page is full or the state's comments end, so a page is short only when it is the last.
 */
export const readCommentPage = (
  scope: CommentScope,
  open: boolean,
  keep: (comment: CommentState) => boolean,
  limit: number,
  after: CommentPosition | undefined
): Effect.Effect<CommentPageRead, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const batch = limit + 1
    const mark = `${open ? commentStateMark.open : commentStateMark.resolved} `
    const kept: Array<{ readonly comment: CommentState; readonly position: CommentPosition }> = []
    let from: CommentPosition = after ?? { sort: `${mark}\u007f`, id: "" }
    for (;;) {
      const docs = yield* storeToRejection(
        views.list(commentsView, commentsPartition(scope), { direction: "descending", limit: batch, after: from })
      )
      const inState = docs.filter((doc) => doc.sort.startsWith(mark))
      for (const doc of inState) {
        const comment = doc.data as CommentState
        if (keep(comment)) kept.push({ comment, position: { sort: doc.sort, id: doc.id } })
        if (kept.length > limit) break
      }
      const ended = docs.length < batch || inState.length < docs.length
      if (kept.length > limit || ended) break
      from = { sort: docs[docs.length - 1].sort, id: docs[docs.length - 1].id }
    }
    const page = kept.slice(0, limit)
    return {
      comments: page.map((entry) => entry.comment),
      next: kept.length > limit ? page[page.length - 1].position : undefined
    }
  })
