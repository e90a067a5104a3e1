import variant from "@jitl/quickjs-wasmfile-release-sync"
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isFresh, openFreshContext } from "../../src/sandbox/freshContext.js"
import { prepareProgram } from "../../src/sandbox/prepareProgram.js"
import { runProgram } from "../../src/sandbox/runProgram.js"
import { computationBounds } from "../../src/sandbox/sandboxBounds.js"
import { Exit, runExit, runOf, sandboxRuntime } from "./sandboxFixture.js"

/** One worker, so every run below lands on the same warm worker and its readied contexts (decision 0231). */
const single = sandboxRuntime({ runWorkers: 1 })
afterAll(() => single.dispose())

const output = async (source: string, input: unknown = null, now?: number) => {
  const run = runOf(source, input)
  const exit = await runExit(single, now === undefined ? run : { ...run, now })
  if (Exit.isFailure(exit)) throw new Error(`expected a success, got ${JSON.stringify(exit.cause)}`)
  return exit.value
}

beforeAll(() => output("export default () => 1"), 60_000)

describe("a warm worker readies each run's context before the run arrives", () => {
  it("pins Date to each run's own start", async () => {
    const first = await output("export default () => [Date.now(), new Date().toISOString()]", null, 1_000)
    const second = await output("export default () => [Date.now(), new Date().toISOString()]", null, 2_000)
    expect(first.output).toEqual([1_000, "1970-01-01T00:00:01.000Z"])
    expect(second.output).toEqual([2_000, "1970-01-01T00:00:02.000Z"])
  })

  it("never lets a run see what an earlier run wrote on the same worker", async () => {
    await output(
      "export default () => { (globalThis as any).left = 1; (Object.prototype as any).polluted = 1; (Date as any).now = () => 5; (Date.prototype as any).toISOString = () => 'x'; (JSON as any).stringify = () => '1'; return 0 }"
    )
    expect(
      (
        await output(
          "export default () => [typeof (globalThis as any).left, ({} as any).polluted ?? 'clean', Date.now(), new Date(0).toISOString(), JSON.stringify({ a: 1 })]"
        )
      ).output
    ).toEqual(["undefined", "clean", Date.parse("2026-01-02T03:04:05.678Z"), "1970-01-01T00:00:00.000Z", '{"a":1}'])
  })

  it("keeps the work count and the depth of a stack overflow the same from run to run", async () => {
    const counting =
      "export default (input: number) => { let sum = 0; for (let i = 0; i < input; i++) sum += i % 7; return sum }"
    const works = await Promise.all([0, 1, 2].map(() => output(counting, 300_000).then((ran) => ran.work)))
    expect(works[0]).toBeGreaterThan(10)
    expect(new Set(works).size).toBe(1)
    const deepest =
      "export default () => { let depth = 0; const down = (): number => { depth++; return down() + 1 }; try { down() } catch { return depth } return -1 }"
    const depths = [(await output(deepest)).output, (await output(deepest)).output]
    expect(depths[0]).toBeGreaterThan(1_000)
    expect(depths[1]).toBe(depths[0])
  })

  it("leaves no listener behind on the worker, call after call", async () => {
    const warnings: Array<string> = []
    const listen = (warning: Error) => warnings.push(warning.name)
    process.on("warning", listen)
    const own = sandboxRuntime({ runWorkers: 1 })
    try {
      for (let run = 0; run < 30; run++) {
        expect(Exit.isSuccess(await runExit(own, runOf("export default (input: number) => input + 1", run)))).toBe(true)
      }
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off("warning", listen)
      await own.dispose()
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning")
  })
})

describe("a fresh context", () => {
  it("runs under the bounds of its run, not those it was opened under", async () => {
    const module = await newQuickJSWASMModuleFromVariant(variant as unknown as QuickJSSyncVariant)
    const program = prepareProgram({ source: "export default () => { while (true) {} }", firstLine: 3 })
    if (program._tag !== "Script") throw new Error(program.detail)
    const fresh = openFreshContext(module, computationBounds)
    if (!isFresh(fresh)) throw new Error(JSON.stringify(fresh))
    const outcome = runProgram(fresh, {
      script: program.script,
      inputJson: "null",
      now: 0,
      deadline: Date.now() + 10_000,
      bounds: { ...computationBounds, work: 50 }
    })
    expect(outcome).toEqual({
      _tag: "Unworkable",
      detail: "the program used its work budget of 50 checkpoints",
      work: 51
    })
  })
})
