import type { Ledger, LedgerPosition } from "@runledger/core"
import { Effect } from "effect"
import type { Contender } from "./contender.js"
import { partition } from "./workload.js"

/** A ledger as a contender: each append one `append` call (one transaction, expected version checked). */
export const ledgerContender = (ledger: Ledger["Type"]): Contender => ({
  append: (workload, appenders) =>
    Effect.forEach(
      partition(workload, appenders),
      (appends) => Effect.forEach(appends, (append) => ledger.append([append]), { discard: true }),
      { concurrency: appenders, discard: true }
    ),
  readAll: (pageSize) =>
    Effect.gen(function* () {
      let from: LedgerPosition | undefined
      let count = 0
      while (true) {
        const page = yield* ledger.readAll({ direction: "forward", from, limit: pageSize })
        count += page.length
        if (page.length < pageSize) return count
        from = page[page.length - 1]!.position
      }
    })
})
