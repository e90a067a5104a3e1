import { Effect, Either } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { type ViewDoc, Views } from "../ports/Views.js"
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

/** Where a page of a view stands: the items it keeps, the last document it looked at, and how many it looked at. */
interface Scan<T> {
  readonly items: Array<T>
  last: { readonly sort: string; readonly id: string } | undefined
  examined: number
}

/**
 * Reads one page of a view, newest first (ADR 0014): decodes the cursor, then reads the partition in batches, the
 * first of `limit` documents and each next twice the one before, looking at each document in turn until the page
 * holds `limit` items or it has looked at 1,000 (HTTP "Paging"). A page whose filter keeps most documents reads
 * about `limit` of them; one whose filter keeps few reads up to 1,000. Each batch reads one document more than it
 * looks at, so the page knows whether more follow; the page's `next_cursor` is the last document it looked at.
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
    const keeps = request.keeps ?? (() => true)
    const bound = request.keeps === undefined ? request.limit : examinedBound
    const scan: Scan<T> = { items: [], last: after?.right, examined: 0 }
    let batch = request.limit
    let hasMore: boolean
    for (;;) {
      const size = Math.min(batch, bound - scan.examined)
      const docs: ReadonlyArray<ViewDoc> = yield* storeToRejection(
        views.list(request.view, request.partition, {
          direction: "descending",
          limit: size + 1,
          ...(scan.last === undefined ? {} : { after: scan.last })
        })
      )
      const looked = lookAt(scan, docs.slice(0, size), keeps, request.limit)
      if (looked < docs.length && (scan.items.length === request.limit || scan.examined === bound)) {
        hasMore = true
        break
      }
      if (docs.length <= size) {
        hasMore = false
        break
      }
      batch *= 2
    }
    return {
      items: scan.items,
      has_more: hasMore,
      next_cursor: hasMore && scan.last !== undefined ? encodeCursor(request.scope, scan.last) : null
    }
  })

/** Looks at documents in turn until the page holds `limit` items; returns how many it looked at. */
const lookAt = <T>(scan: Scan<T>, docs: ReadonlyArray<ViewDoc>, keeps: (item: T) => boolean, limit: number): number => {
  let looked = 0
  for (const doc of docs) {
    if (scan.items.length === limit) break
    looked++
    scan.examined++
    scan.last = { sort: doc.sort, id: doc.id }
    if (keeps(doc.data as T)) scan.items.push(doc.data as T)
  }
  return looked
}
