import { Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { type ViewDoc, Views } from "../ports/Views.js"
import { storeToRejection } from "./unavailable.js"

/** How many documents a whole-partition read asks for at a time. */
const pageSize = 500

/** Reads every document of a view's partition in ascending order, page by page. */
export const readPartition = (view: string, partition: string): Effect.Effect<Array<ViewDoc>, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const found: Array<ViewDoc> = []
    let after: { sort: string; id: string } | undefined
    for (;;) {
      const page = yield* storeToRejection(
        views.list(view, partition, { direction: "ascending", limit: pageSize, ...(after ? { after } : {}) })
      )
      found.push(...page)
      if (page.length < pageSize) return found
      after = { sort: page[page.length - 1].sort, id: page[page.length - 1].id }
    }
  })
