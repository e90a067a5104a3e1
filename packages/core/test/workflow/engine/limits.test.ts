// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { standardErrorBase } from "../../../src/formats/workflow/WorkflowError.js"
import { armedTimers } from "../../../src/workflow/engine/runState.js"
import { ExpressionEvaluator } from "../../../src/workflow/expressions/ExpressionEvaluator.js"
import { expressionRuntime, runOf } from "./engineFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

describe("limits of §15 the interpreter enforces", () => {
  it("yields after 100 tasks of one input on an immediate timer, and goes on when it fires", async () => {
    const run = runOf(
      runtime,
      "  - each:\n      for: { in: $data.xs }\n      do:\n        - add:\n            set: { x: 1 }\n"
    )
    await run.start({ xs: Array.from({ length: 150 }, (_, index) => index) })
    expect(run.ending).toBeUndefined()
    expect(run.steps).toHaveLength(100)
    const yielded = armedTimers(run.state!)[0]!
    expect(yielded.dueAt).toBe(run.now)
    await run.fireNext()
    expect(run.ending).toEqual({ status: "succeeded", output: { x: 1 } })
    expect(run.steps[0]).toMatchObject({ reference: "/do/0/each/do/0/add", run: 100, caused_by: "input" })
  })

  it("yields between two tasks once an input spent 250 checkpoints", async () => {
    const loop = (n: number) => `(() => { let s = 0; for (let i = 0; i < ${n}; i++) s += i; return s })()`
    const workOf = (n: number) =>
      runtime.runPromise(
        Effect.flatMap(ExpressionEvaluator, (evaluator) =>
          evaluator.evaluate({ script: loop(n), variables: {}, now: 0, budget: 250, deadline: Date.now() + 60_000 })
        ).pipe(
          Effect.map((evaluated) => evaluated.work),
          Effect.orElseSucceed(() => 250)
        )
      )
    let n = 1_000
    while ((await workOf(n)) < 130) n *= 2
    while ((await workOf(n)) > 240) n = Math.floor(n * 0.8)
    const heavy = `  - t$:\n      set:\n        s: \${ ${loop(n)} }\n`
    const run = runOf(runtime, [1, 2, 3].map((index) => heavy.replace("$", String(index))).join(""))
    await run.start({})
    expect(run.steps.map((step) => step.name)).toEqual(["t1", "t2"])
    expect(armedTimers(run.state!)[0]!.dueAt).toBe(run.now)
    await run.fireNext()
    expect(run.steps.map((step) => step.name)).toEqual(["t3"])
    expect(run.ending?.status).toBe("succeeded")
  })

  it("rejects a run that starts 10,000 tasks without waiting", async () => {
    const run = runOf(runtime, "  - a:\n      set: { x: 1 }\n  - b:\n      set: { x: 2 }\n      then: a\n")
    await run.start({})
    let inputs = 1
    while (run.ending === undefined) {
      await run.fireNext()
      inputs += 1
    }
    expect(inputs).toBe(101)
    expect(run.ending).toEqual({
      status: "rejected",
      reason: "unavailable",
      detail: "Too many tasks without waiting: the run started 10000 tasks without waiting (at /do/0/a)",
      cause: { step: "do/0/a" }
    })
    expect(armedTimers(run.state!)).toEqual([])
  })

  it("expression work past the input's budget raises ERR/runtime 500 at the task", async () => {
    const run = runOf(
      runtime,
      "  - heavy:\n      set:\n        n: ${ (() => { let s = 0; for (let i = 0; i < 1e9; i++) s += i; return s })() }\n"
    )
    await run.start({})
    expect(run.steps[0]).toMatchObject({ outcome: "raised", error: { type: `${standardErrorBase}runtime` } })
    expect(run.ending).toMatchObject({ status: "rejected", reason: "unavailable" })
  })

  it("rejects a run whose inbox holds more than 64 events", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: PT1H\n")
    await run.start({})
    for (let index = 0; index < 64; index += 1) await run.send({ id: `i${index}`, type: "t.x" })
    expect(run.ending).toBeUndefined()
    await run.send({ id: "i64", type: "t.x" })
    expect(run.ending).toMatchObject({
      status: "rejected",
      reason: "unavailable",
      detail: expect.stringContaining("inbox")
    })
  })

  it("a run emits at most 1,024 events: the next raises ERR/runtime 500", async () => {
    const run = runOf(
      runtime,
      `  - each:
      for: { in: $data.xs }
      do:
        - announce:
            emit:
              event:
                with: { type: t.x, source: https://x.example }
`
    )
    await run.start({ xs: Array.from({ length: 1_025 }, (_, index) => index) })
    while (run.ending === undefined) await run.fireNext()
    expect(run.outputs.filter((output) => output.kind === "emit")).toHaveLength(1_024)
    expect(run.ending).toMatchObject({
      status: "rejected",
      reason: "unavailable",
      detail: expect.stringContaining("Too many emitted events")
    })
  })

  it("rejects a run holding more than 4 MiB of data", async () => {
    const run = runOf(
      runtime,
      "  - big:\n      set:\n        text: ${ 'x'.repeat(4300000) }\n  - pause:\n      wait: PT1M\n"
    )
    await run.start({})
    expect(run.ending).toMatchObject({
      status: "rejected",
      reason: "unavailable",
      detail: expect.stringContaining("too much data")
    })
    expect(armedTimers(run.state!)).toEqual([])
  })

  it("rejects a run at the input its data grows past 4 MiB, 1 MB a wait at a time", async () => {
    const keys = ["a", "b", "c", "d", "e"]
    const tasks = keys.map((key, index) => {
      const kept = keys.slice(0, index).map((before) => `        ${before}: \${ $data.${before} }\n`)
      const set = `  - set_${key}:\n      set:\n${kept.join("")}        ${key}: \${ '${key}'.repeat(1000000) }\n`
      return `${set}  - wait_${key}:\n      wait: PT1M\n`
    })
    const run = runOf(runtime, tasks.join(""))
    await run.start({})
    for (let waited = 1; waited < 4; waited++) {
      expect(run.ending).toBeUndefined()
      await run.fireNext()
    }
    expect(run.ending).toBeUndefined()
    await run.fireNext()
    expect(run.ending).toMatchObject({ reason: "unavailable", detail: expect.stringContaining("too much data") })
  })

  it("counts 4 KiB for each task under way: 1,057 tasks waiting in nested forks hold more than 4 MiB", async () => {
    const inner = Array.from(
      { length: 32 },
      (_, n) => `                    - w${n}:\n                        wait: PT1M\n`
    ).join("")
    const outer = Array.from(
      { length: 32 },
      (_, n) => `          - b${n}:\n              fork:\n                branches:\n${inner}`
    ).join("")
    const run = runOf(runtime, `  - all:\n      fork:\n        branches:\n${outer}`)
    await run.start({})
    expect(run.ending).toMatchObject({ reason: "unavailable", detail: expect.stringContaining("4 KiB per task") })
  })

  it("rejects a run whose input records a change over 1,572,864 bytes: a value kept across a wait with the rest", async () => {
    const run = runOf(
      runtime,
      "  - big:\n      set:\n        text: ${ 'x'.repeat(1600000) }\n  - pause:\n      wait: PT1M\n"
    )
    await run.start({})
    expect(run.ending).toMatchObject({ reason: "unavailable", detail: expect.stringContaining("too large a value") })
    expect(armedTimers(run.state!)).toEqual([])
  })

  it("counts a value once however many frames keep it: 1.4 MB kept across a wait is within both bounds", async () => {
    const run = runOf(
      runtime,
      "  - big:\n      set:\n        text: ${ 'x'.repeat(1400000) }\n  - pause:\n      wait: PT1M\n"
    )
    await run.start({})
    expect(JSON.stringify(run.state).length).toBeGreaterThan(4 * 1_048_576)
    expect(run.ending).toBeUndefined()
  })

  it("counts the history each input records and rejects the input that passes 512 MiB", async () => {
    const run = runOf(
      runtime,
      "  - pause:\n      wait: PT1M\n  - again:\n      wait: PT1M\n  - last:\n      wait: PT1M\n"
    )
    await run.start({})
    const recorded = () => (run.state as any).counters.recorded as number
    const before = recorded()
    const fired = await run.fireNext()
    const change = JSON.stringify(fired!.patch.slice(0, -1)).length + JSON.stringify(fired!.steps).length
    expect(recorded()).toBe(before + change)
    for (const state of [run.state, run.rebuilt] as Array<any>) state.counters.recorded = 512 * 1_048_576 - 100
    await run.fireNext()
    expect(run.ending).toMatchObject({ reason: "unavailable", detail: expect.stringContaining("history is too long") })
  })

  it("rejects the input after the 100,000th", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: PT1M\n")
    await run.start({})
    for (const state of [run.state, run.rebuilt] as Array<any>) state.counters.inputs = 100_000
    await run.fireNext()
    expect(run.ending).toMatchObject({ reason: "unavailable", detail: expect.stringContaining("Too many inputs") })
  })

  it("ends a run whose output passes the bound conflict/oversized", async () => {
    const run = runOf(runtime, "  - big:\n      set:\n        text: ${ 'x'.repeat(1048600) }\n")
    await run.start({})
    expect(run.ending).toMatchObject({ status: "rejected", reason: "conflict", kind: "oversized" })
  })
})
