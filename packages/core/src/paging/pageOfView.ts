import { Effect, Either } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import { decodeCursor, encodeCursor } from "./cursor.js"

/** How many documents a filtered page looks at before it stops (HTTP "Paging"). */
export const examinedBound = 1000

/** One page of a view's partition, newest first (descending sort), kept by a filter. */
export interface ViewPageRequest<T> {
  readonly view: string
  readonly partition: string
  /** What the page's cursors belong to; a cursor of another scope is refused at `/cursor`. */
  readonly scope: string
  readonly cursor: string | undefined
  readonly limit: number
  /** The filter, or undefined when the request filters nothing (the page then reads only `limit + 1`). */
  readonly keeps: ((item: T) => boolean) | undefined
}

/**
 * Reads one page of a view, newest first: decodes the cursor, looks at up to 1,000 documents when a filter is given,
 * and gives the kept items with `has_more` and the `next_cursor` of the last document looked at.
 */
export const pageOfView = <T>(
  request: ViewPageRequest<T>
): Effect.Effect<{ items: Array<T>; has_more: boolean; next_cursor: string | null }, Rejection, Views> =>
  Effect.gen(function* () {
    const after =
      request.cursor === undefined
        ? undefined
        : decodeCursor<{ sort: string; id: string }>(request.scope, request.cursor)
    if (after !== undefined && Either.isLeft(after)) return yield* Effect.fail(after.left)
    const views = yield* Views
    const docs = yield* storeToRejection(
      views.list(request.view, request.partition, {
        direction: "descending",
        limit: (request.keeps === undefined ? request.limit : examinedBound) + 1,
        ...(after === undefined ? {} : { after: after.right })
      })
    )
    const keeps = request.keeps ?? (() => true)
    const items: Array<T> = []
    let examined = 0
    for (const doc of docs.slice(0, examinedBound)) {
      if (items.length === request.limit) break
      examined++
      if (keeps(doc.data as T)) items.push(doc.data as T)
    }
    const hasMore = examined < docs.length
    const last = docs[examined - 1]
    return {
      items,
      has_more: hasMore,
      next_cursor: hasMore && last !== undefined ? encodeCursor(request.scope, { sort: last.sort, id: last.id }) : null
    }
  })
