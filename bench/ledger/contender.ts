import type { Effect } from "effect"
import type { Workload } from "./workload.js"

/** One side of a comparison, fresh for each repetition: a ledger, or the floor it is measured against. */
export interface Contender {
  /** Runs the workload's appends by `appenders` concurrent appenders, each appending its streams in order. */
  readonly append: (workload: Workload, appenders: number) => Effect.Effect<void, unknown>
  /** Reads every fact in global order, forward in pages of `pageSize`; returns how many facts it read. */
  readonly readAll: (pageSize: number) => Effect.Effect<number, unknown>
}
