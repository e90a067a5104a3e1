import { afterAll, expect, it } from "vitest"
import { runExit, sandboxRuntime } from "./sandboxFixture.js"

const runtime = sandboxRuntime()
afterAll(() => runtime.dispose())

it("smoke", async () => {
  const t = performance.now()
  const exit = await runExit(runtime, { ...runOfX("export default function (input: number): number { return input + 1 }"), input: 41 })
  console.log(JSON.stringify(exit), performance.now() - t)
  const t2 = performance.now()
  const exit2 = await runExit(runtime, { ...runOfX("export default (input: any) => ({ at: new Date(), n: Date.now(), r: typeof Math.random, f: typeof Function, e: typeof eval })"), input: 41 })
  console.log(JSON.stringify(exit2), performance.now() - t2)
  const exit3 = await runExit(runtime, { ...runOfX("export default (input: any) => ({ at: Date.now(), iso: new Date().toISOString() })"), input: 41 })
  console.log(JSON.stringify(exit3))
  const exit4 = await runExit(runtime, { ...runOfX("\n\nexport default function (input: any) {\n  throw new RangeError('bad')\n}"), input: 41 })
  console.log(JSON.stringify(exit4))
  expect(1).toBe(1)
})
import { runOf as runOfX } from "./sandboxFixture.js"
