import { Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { AnalyticsWindow } from "./AnalyticsWindow.js"
import { dayBucketView, runDayView } from "./analyticsProjection.js"
import type { DayBucket } from "./DayBucket.js"
import type { RunDay } from "./RunDay.js"

/** How many documents one listing of a view loads. */
const pageSize = 1000

/** Reads the documents of a playbook's partition of a view sorted by day, within a window, oldest first. */
const readWindow = <T>(
  view: string,
  org: string,
  playbook: string,
  window: AnalyticsWindow
): Effect.Effect<ReadonlyArray<T>, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const found: Array<T> = []
    let after = { sort: window.from, id: "" }
    for (;;) {
      const page = yield* storeToRejection(
        views.list(view, `${org}/${playbook}`, { direction: "ascending", limit: pageSize, after })
      )
      const within = page.filter((doc) => doc.sort <= window.to)
      found.push(...within.map((doc) => doc.data as T))
      if (within.length < pageSize) return found
      after = { sort: page[page.length - 1].sort, id: page[page.length - 1].id }
    }
  })

/** Reads the buckets of a playbook's days within a window: at most one per day and definition, oldest first. */
export const readBuckets = (
  org: string,
  playbook: string,
  window: AnalyticsWindow
): Effect.Effect<ReadonlyArray<DayBucket>, Rejection, Views> => readWindow(dayBucketView, org, playbook, window)

/** Reads the days of a playbook within a window, one document per day a run counts on, oldest first. */
export const readDays = (
  org: string,
  playbook: string,
  window: AnalyticsWindow
): Effect.Effect<ReadonlyArray<RunDay>, Rejection, Views> => readWindow(runDayView, org, playbook, window)
