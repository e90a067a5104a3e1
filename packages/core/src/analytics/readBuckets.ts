import { Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { AnalyticsWindow } from "./AnalyticsWindow.js"
import { dayBucketView } from "./analyticsProjection.js"
import type { DayBucket } from "./DayBucket.js"

/** How many buckets one listing of the view loads. */
const pageSize = 1000

/** Reads the buckets of a playbook's days within a window: at most one per day and definition, oldest first. */
export const readBuckets = (
  org: string,
  playbook: string,
  window: AnalyticsWindow
): Effect.Effect<ReadonlyArray<DayBucket>, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const found: Array<DayBucket> = []
    let after = { sort: window.from, id: "" }
    for (;;) {
      const page = yield* storeToRejection(
        views.list(dayBucketView, `${org}/${playbook}`, { direction: "ascending", limit: pageSize, after })
      )
      const within = page.filter((doc) => doc.sort <= window.to)
      found.push(...within.map((doc) => doc.data as DayBucket))
      if (within.length < pageSize) return found
      after = { sort: page[page.length - 1].sort, id: page[page.length - 1].id }
    }
  })
