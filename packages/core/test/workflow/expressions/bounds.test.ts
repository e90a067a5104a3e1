import { Effect, Either } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ExpressionEvaluator } from "../../../src/workflow/expressions/ExpressionEvaluator.js"
import { evaluate, evaluated, expressionRuntime, failureOf, pinnedNow, valueOf } from "./expressionFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

/** A loop of `count` iterations: about 2 polls each, so 1e5 iterations take about 20 checkpoints. */
const loop = (count: number) => `(() => { let sum = 0; for (let i = 0; i < ${count}; i++) sum += i % 7; return sum })()`

describe("an expression that throws (workflow-format.md §6.2)", () => {
  it("fails with the error's name and message", async () => {
    const failure = await failureOf(runtime, "(() => { throw new RangeError('too far') })()")
    expect(failure).toMatchObject({ _tag: "ExpressionFailed", detail: "the expression raised RangeError: too far" })
    expect((await failureOf(runtime, "$data.missing.deeper")).detail).toBe(
      "the expression raised TypeError: cannot read property 'deeper' of undefined"
    )
    expect((await failureOf(runtime, "(() => { throw 'plain words' })()")).detail).toBe(
      "the expression raised plain words"
    )
  })

  it("fails on a script that is not one expression", async () => {
    expect((await failureOf(runtime, "1; 2")).detail).toMatch(/^the expression raised SyntaxError/)
  })

  it("fails on a stack overflow, which the expression itself may catch", async () => {
    const down = "function down() { return down() + 1 }"
    expect(await failureOf(runtime, `(() => { ${down} return down() })()`)).toMatchObject({
      _tag: "ExpressionFailed",
      detail: "the expression raised InternalError: stack overflow"
    })
    expect(await valueOf(runtime, `(() => { ${down} try { return down() } catch (e) { return String(e) } })()`)).toBe(
      "InternalError: stack overflow"
    )
  })
})

describe("the work meter (decision W11)", () => {
  it("counts the same work for the same expression and data, evaluation after evaluation", async () => {
    const first = evaluated(await evaluate(runtime, loop(100_000)))
    await valueOf(runtime, loop(3_333))
    const second = evaluated(await evaluate(runtime, loop(100_000)))
    expect(first.work).toBeGreaterThan(10)
    expect(second).toEqual(first)
  })

  it("counts the same work after evaluations that polluted the realm, ran out of memory, overflowed or threw", async () => {
    const first = evaluated(await evaluate(runtime, loop(50_000)))
    await valueOf(runtime, "(Object.prototype.polluted = 1, Array.prototype.push = null, globalThis.kept = [1], 1)")
    await failureOf(runtime, "'x'.repeat(30 * 1024 * 1024).repeat(3).length")
    await failureOf(runtime, "(() => { const f = () => f(); return f() })()")
    await failureOf(runtime, "(() => { throw new Error('no') })()")
    expect(evaluated(await evaluate(runtime, loop(50_000)))).toEqual(first)
    expect(evaluated(await evaluate(runtime, "$data.a + 1"))).toEqual({ value: 2, work: 1 })
  })

  it("fails a budget smaller than the prelude's checkpoint as the meter would", async () => {
    expect(await failureOf(runtime, "$data.a + 1", { budget: 0 })).toEqual(
      expect.objectContaining({
        _tag: "ExpressionOverBudget",
        detail: "the expression used its work budget of 0 checkpoints",
        work: 1
      })
    )
  })

  it("ends an expression that needs more than its budget, and runs the next one as before", async () => {
    const needed = evaluated(await evaluate(runtime, loop(100_000))).work
    expect(evaluated(await evaluate(runtime, loop(100_000), { budget: needed })).work).toBe(needed)
    expect(await failureOf(runtime, loop(100_000), { budget: needed - 5 })).toEqual(
      expect.objectContaining({
        _tag: "ExpressionOverBudget",
        detail: `the expression used its work budget of ${needed - 5} checkpoints`,
        work: needed - 4
      })
    )
    expect(evaluated(await evaluate(runtime, loop(100_000))).work).toBe(needed)
  })

  it("ends an endless loop at 250 checkpoints, one the expression cannot catch", async () => {
    expect(await failureOf(runtime, "(() => { for (;;) {} })()")).toEqual(
      expect.objectContaining({ _tag: "ExpressionOverBudget", work: 251 })
    )
    expect(await failureOf(runtime, "(() => { for (;;) { try { for (;;) {} } catch {} } })()")).toEqual(
      expect.objectContaining({ _tag: "ExpressionOverBudget", work: 251 })
    )
    expect(await valueOf(runtime, "$data.a")).toBe(1)
  })
})

describe("the deadline and memory (§6.4)", () => {
  it("ends an expression when the input's deadline passes", async () => {
    expect(await failureOf(runtime, "1", { deadline: Date.now() - 1 })).toEqual(
      expect.objectContaining({
        _tag: "ExpressionOverBudget",
        detail: "the input's expressions ran past their deadline"
      })
    )
    const endless = await failureOf(runtime, "(() => { for (;;) {} })()", {
      budget: 1_000_000_000,
      deadline: Date.now() + 100
    })
    expect(endless.detail).toBe("the input's expressions ran past their deadline")
  })

  it("ends an expression that allocates more than 64 MiB, and the next one runs", async () => {
    for (const script of ["'x'.repeat(70 * 1024 * 1024).length", "new Array(1e8).fill(0).length"]) {
      expect(await failureOf(runtime, script)).toEqual(
        expect.objectContaining({
          _tag: "ExpressionOverBudget",
          detail: "the expression ran out of memory (64 MiB)"
        })
      )
    }
    expect(await valueOf(runtime, "'x'.repeat(1024).length")).toBe(1024)
  })
})

describe("the host's stack", () => {
  /** Runs `run` below `frames` frames of the host's stack, counting them in `reached`. */
  const below = <A>(frames: number, run: () => A, reached: { frames: number }): A => {
    reached.frames++
    return frames === 0 ? run() : below(frames - 1, run, reached)
  }
  /** Frames of `below` the host's stack still takes from here. */
  const freeFrames = () => {
    const reached = { frames: 0 }
    try {
      below(Number.POSITIVE_INFINITY, () => 0, reached)
    } catch {
      return reached.frames
    }
    return reached.frames
  }

  it("ends an expression whose recursion meets the host's stack before its own limit, and the next one runs", async () => {
    const recursing = "(() => { const down = (n) => JSON.parse('[1]', () => down(n + 1)); return down(0) })()"
    const evaluation = Effect.flatMap(ExpressionEvaluator, (evaluator) =>
      Effect.either(
        evaluator.evaluate({
          script: recursing,
          variables: {},
          now: pinnedNow,
          budget: 250,
          deadline: Date.now() + 10_000
        })
      )
    )
    const nearTheEnd = Math.floor(freeFrames() * 0.75)
    const result = below(nearTheEnd, () => runtime.runSync(evaluation), { frames: 0 })
    expect(Either.isLeft(result) && result.left).toEqual(
      expect.objectContaining({
        _tag: "ExpressionOverBudget",
        detail: "the expression recursed deeper than the host's stack allows"
      })
    )
    expect(await valueOf(runtime, "$data.a + 1")).toBe(2)
  })
})
