import { afterAll, describe, expect, it } from "vitest"
import { openInThreadRuns } from "../../src/sandbox/inThreadRuns.js"
import type { RunJob } from "../../src/sandbox/protocol.js"
import { computationBounds } from "../../src/sandbox/sandboxBounds.js"
import { Exit, runExit, runOf, sandboxRuntime } from "./sandboxFixture.js"

/** The same sandbox with runs tried on the calling thread first (the default) and with every run in a worker. */
const tried = sandboxRuntime({ runWorkers: 1 })
const workers = sandboxRuntime({ runWorkers: 1, inThread: false })
afterAll(async () => {
  await tried.dispose()
  await workers.dispose()
})

/** How a run ended, as a test compares it: the output and work count, or the failure's tag and words. */
const endingOf = async (runtime: typeof tried, source: string, input: unknown) => {
  const exit = await runExit(runtime, runOf(source, input))
  if (Exit.isSuccess(exit)) return { output: exit.value.output, work: exit.value.work }
  return exit.cause._tag === "Fail" ? { failed: exit.cause.error } : { defect: String(exit.cause) }
}

const jobOf = (source: string, input: unknown): RunJob => {
  const run = runOf(source, input)
  return {
    program: { source: run.source, firstLine: run.firstLine },
    inputJson: JSON.stringify(run.input),
    now: run.now,
    deadline: run.deadline,
    bounds: computationBounds
  }
}

/** Programs whose endings must not depend on where they ran (decision 0418). */
const programs: ReadonlyArray<readonly [string, string, unknown]> = [
  ["a small function", "export default (input: { n: number }) => ({ n: input.n + 1 })", { n: 41 }],
  [
    "a loop of a few checkpoints",
    "export default (n: number) => { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s }",
    30_000
  ],
  [
    "a recursion that catches its own stack overflow",
    "function depth(n: number): number { try { return depth(n + 1) } catch { return n } }\nexport default () => depth(0)",
    null
  ],
  ["a raising program", "export default () => { throw new Error('no') }", null],
  [
    "a loop past the in-thread bound",
    "export default (n: number) => { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s }",
    3_000_000
  ],
  ["an endless loop", "export default () => { for (;;) {} }", null],
  ["a value that is not JSON", "export default () => () => 1", null],
  ["Date pinned to the run's start", "export default () => [Date.now(), new Date().toISOString()]", null]
]

describe("a run tried on the calling thread first (decision 0418)", () => {
  it.each(programs)(
    "ends %s as a worker ends it, output, words and work count",
    async (_, source, input) => {
      expect(await endingOf(tried, source, input)).toEqual(await endingOf(workers, source, input))
    },
    60_000
  )

  it("keeps a short run's result, hands others to a worker, and a program that missed three times in a row or failed once for good", async () => {
    const runs = await openInThreadRuns()
    expect(runs).toBeDefined()
    const short = runs!.attempt(jobOf("export default (input: { n: number }) => ({ n: input.n + 1 })", { n: 1 }))
    expect(short).toMatchObject({ _tag: "Ran", json: '{"n":2}' })
    const endless = "export default (stop: boolean) => { for (;;) { if (stop) return 1 } }"
    expect(runs!.attempt(jobOf(endless, true))).toMatchObject({ _tag: "Ran", json: "1" })
    for (let miss = 1; miss <= 3; miss++) expect(runs!.attempt(jobOf(endless, false))).toBeUndefined()
    expect(runs!.attempt(jobOf(endless, true))).toBeUndefined()
    const raising = "export default (raise: boolean) => { if (raise) throw new Error('no'); return 1 }"
    expect(runs!.attempt(jobOf(raising, false))).toMatchObject({ _tag: "Ran", json: "1" })
    expect(runs!.attempt(jobOf(raising, true))).toBeUndefined()
    expect(runs!.attempt(jobOf(raising, false))).toBeUndefined()
    expect(runs!.attempt(jobOf("export default (x: string) => x.length", "x".repeat(70_000)))).toBeUndefined()
    expect(runs!.attempt(jobOf("export default (x: string) => x.length", "x".repeat(60_000)))).toMatchObject({
      _tag: "Ran",
      json: "60000"
    })
  }, 60_000)
})
