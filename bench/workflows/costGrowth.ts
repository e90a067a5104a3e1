import type { ContentStore, Ledger, Views } from "@runledger/core"
import type { Layer } from "effect"
import { tickType } from "./documents.js"
import { openRunLedger, saveBenchDefinitions, workflowNames } from "./runLedgerRuntime.js"

/** The most events a run takes over its life (workflow-format.md §15). */
const lifetimeEvents = 1_024

/** What one restart measured: per history length, the milliseconds `send_run_event` took to apply one input. */
export type ResumeSample = ReadonlyMap<number, number>

/** Runs of the listening workflow that have recorded `histories` inputs each, ready to be resumed after restarts. */
export interface GrowthRuns {
  /** How many restarts the runs' event limit leaves room for. */
  readonly restarts: number
  /** Restarts the runtime (a new one on the same store), then applies one input to each run; the times. */
  readonly resume: (restart: number) => Promise<ResumeSample>
}

let events = 0
const tick = (runId: string) => ({
  run_id: runId,
  event: { type: tickType, id: `tick-${++events}`, data: { n: events } }
})

/**
 * Starts one run of the `loop` workflow per history length h and sends it h − 1 events, so it has recorded h inputs
 * (its start, then one per event), plus a warm-up run. Each `resume` then opens a fresh runtime on the same store
 * — nothing of the runs in memory — applies one input to the warm-up run (connections, definitions, first-use
 * costs), and times one input to each run, in an order that rotates with the restart. `store` must be empty.
 */
export const prepareGrowthRuns = async (
  store: () => Layer.Layer<Ledger | Views | ContentStore, unknown>,
  histories: ReadonlyArray<number>,
  wantedRestarts: number
): Promise<GrowthRuns> => {
  const setUp = await openRunLedger(store())
  await saveBenchDefinitions(setUp, 1)
  const start = async () =>
    (await setUp.call("run_definition", { type: "workflow", name: workflowNames.loop, input: {} })).run_id as string
  const warmUp = await start()
  const runs = new Map<number, string>()
  for (const history of histories) {
    const runId = await start()
    for (let input = 1; input < history; input++) await setUp.call("send_run_event", tick(runId))
    runs.set(history, runId)
  }
  await setUp.close()
  const restarts = Math.max(1, Math.min(wantedRestarts, lifetimeEvents - Math.max(...histories)))
  return {
    restarts,
    resume: async (restart) => {
      const runtime = await openRunLedger(store())
      try {
        await runtime.call("send_run_event", tick(warmUp))
        const order = [...runs].map((_, index, all) => all[(index + restart) % all.length]!)
        const sample = new Map<number, number>()
        for (const [history, runId] of order) {
          const begin = performance.now()
          await runtime.call("send_run_event", tick(runId))
          sample.set(history, performance.now() - begin)
        }
        return sample
      } finally {
        await runtime.close()
      }
    }
  }
}
