import { Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { AnalyticsWindow } from "./AnalyticsWindow.js"
import type { RunTally } from "./RunTally.js"
import { runTallyView } from "./runTallyProjection.js"

/** How many tallies one listing of the view loads. */
const pageSize = 1000

/** Reads the tallies of the runs a playbook first started within a window, in order of that day. */
export const readTallies = (
  org: string,
  playbook: string,
  window: AnalyticsWindow
): Effect.Effect<ReadonlyArray<RunTally>, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const found: Array<RunTally> = []
    let after = { sort: window.from, id: "" }
    for (;;) {
      const page = yield* storeToRejection(
        views.list(runTallyView, `${org}/${playbook}`, { direction: "ascending", limit: pageSize, after })
      )
      const within = page.filter((doc) => doc.sort <= window.to)
      found.push(...within.map((doc) => doc.data as RunTally))
      if (within.length < pageSize) return found
      after = { sort: page[page.length - 1].sort, id: page[page.length - 1].id }
    }
  })
