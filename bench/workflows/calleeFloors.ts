import { QuickJsSandbox, Sandbox } from "@runledger/core"
import { Effect, ManagedRuntime } from "effect"
import { bareQuickJs } from "../runs/bareQuickJs.js"
import { incrementSource } from "./documents.js"

/**
 * What a call step's callee costs by itself, without the ledger or the interpreter: the floors under the memory
 * and sequential targets. Each runs `increment` n → n + 1 from n = 0, one run after another, and answers when each
 * run returned (so a row's p50 is the median run).
 */
export interface CalleeFloors {
  /** `Sandbox.run` of `increment`'s program through the QuickJS sandbox the runtime uses (its worker pool). */
  readonly sandboxRuns: (runs: number) => Promise<CalleeRuns>
  /** The same program in a bare QuickJS context on this thread: no prelude, no bounds, no worker. */
  readonly bareRuns: (runs: number) => Promise<CalleeRuns>
  readonly close: () => Promise<void>
}

/** The last n, and when each run returned (`performance.now()`, the first entry is when the first began). */
export interface CalleeRuns {
  readonly output: number
  readonly ends: ReadonlyArray<number>
}

/** `increment`'s program as the computation format hands it to the sandbox: the document's body, its first line. */
const program = (() => {
  const lines = incrementSource.split("\n")
  const bodyAt = lines.indexOf("---", 1) + 1
  return { source: lines.slice(bodyAt).join("\n"), firstLine: bodyAt + 1 }
})()

/** Runs of each way before the floors are timed (on 2026-12-07 the sandbox's runs came up to speed within 2,000). */
const warmUpRuns = 3_000

/** The same program with its types stripped, as the bare context evaluates it. */
const bareScript = "(function (input) { return { n: input.n + 1 } })"

/** Opens the runtime's sandbox (`QuickJsSandbox.layer()`, the default pool) and a bare context of its build. */
export const openCalleeFloors = async (): Promise<CalleeFloors> => {
  const sandbox = ManagedRuntime.make(QuickJsSandbox.layer())
  const sandboxRun = (n: number) =>
    sandbox.runPromise(
      Effect.flatMap(Sandbox, (port) =>
        port.run({ ...program, input: { n }, now: Date.now(), deadline: Date.now() + 10_000 })
      )
    )
  const bareRun = await bareQuickJs(bareScript)
  const chain = async (runs: number, step: (n: number) => Promise<number>): Promise<CalleeRuns> => {
    const ends = [performance.now()]
    let n = 0
    for (let run = 0; run < runs; run++) {
      n = await step(n)
      ends.push(performance.now())
    }
    return { output: n, ends }
  }
  // The engines warm up before anything is timed: a floor must be the callee at its best, and a run on the calling
  // thread is several times slower for its first two thousand or so (JIT and WebAssembly tiering), where the
  // benchmark's single warm-up repetition would take only a hundred.
  for (let run = 0; run < warmUpRuns; run++) {
    await sandboxRun(run)
    bareRun({ n: run })
  }
  return {
    sandboxRuns: (runs) => chain(runs, async (n) => ((await sandboxRun(n)).output as { n: number }).n),
    bareRuns: (runs) => chain(runs, async (n) => (JSON.parse(bareRun({ n })) as { n: number }).n),
    close: () => sandbox.dispose()
  }
}
