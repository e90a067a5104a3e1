// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { afterAll, describe, expect, it } from "vitest"
import { armedTimers, openCalls } from "../../../src/workflow/engine/runState.js"
import { expressionRuntime, outcomesOf, runOf, startAt, type TestRun } from "./engineFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

/** A try around a call, with the given catch lines (indented under `catch:`). */
const guarded = (catchLines: string) => `  - check:
      try:
        - assess:
            call: run_definition
            with: { type: reasoning, name: assess-invoice }
      catch:
${catchLines.replace(/^(?=.)/gm, "        ")}`

const unreachable = { status: "unreachable" } as const

/** Answers every call unreachable and fires every retry timer until the run ends; the retry delays seen. */
const failEveryTime = async (run: TestRun): Promise<ReadonlyArray<number>> => {
  const delays: Array<number> = []
  while (run.ending === undefined) {
    if (openCalls(run.state!).length > 0) {
      await run.answer(unreachable)
      continue
    }
    const timer = armedTimers(run.state!)[0]!
    delays.push(timer.dueAt - run.now)
    await run.fireNext()
  }
  return delays
}

describe("try and catch", () => {
  it("catches by each field of errors.with (type by short name, status, instance, title, details, kind)", async () => {
    const filters = [
      "type: communication",
      "type: https://open-workflow-specification.org/spec/1.0.0/errors/communication",
      "status: 503",
      "instance: /do/0/check/try/0/assess",
      "title: 'reasoning assess-invoice could not be reached'",
      "details: down",
      "kind: down_kind"
    ]
    for (const filter of filters) {
      const run = runOf(
        runtime,
        guarded(`errors:\n  with:\n    ${filter}\ndo:\n  - recovered:\n      set: { ok: true }\n`)
      )
      await run.start({})
      await run.answer(
        filter.startsWith("kind")
          ? { status: "rejected", reason: "unavailable", kind: "down_kind" }
          : { status: "unreachable", detail: "down" }
      )
      expect(run.ending, filter).toEqual({ status: "succeeded", output: { ok: true } })
    }
    const missed = runOf(runtime, guarded("errors:\n  with:\n    status: 500\n"))
    await missed.start({})
    await missed.answer(unreachable)
    expect(missed.ending).toMatchObject({ status: "rejected", reason: "unavailable" })
    expect(outcomesOf(missed.steps)).toEqual(["/do/0/check/try/0/assess raised", "/do/0/check raised"])
  })

  it("applies when and exceptWhen with the error under catch.as, and hands the input on without catch.do", async () => {
    const when = runOf(runtime, guarded("as: problem\nwhen: $problem.status === 503 && $input.keep === true\n"))
    await when.start({ keep: true })
    await when.answer(unreachable)
    expect(when.ending).toEqual({ status: "succeeded", output: { keep: true } })

    const except = runOf(runtime, guarded("exceptWhen: $error.status === 503\n"))
    await except.start({ keep: true })
    await except.answer(unreachable)
    expect(except.ending?.status).toBe("rejected")
  })

  it("retries with delay, exponential backoff and seeded jitter, then recovers (§9.3)", async () => {
    const policy = `errors:
  with: { type: communication }
retry:
  delay: { seconds: 10 }
  backoff: { exponential: {} }
  jitter: { from: { seconds: 0 }, to: { seconds: 2 } }
  limit:
    attempt: { count: 4 }
do:
  - give-up:
      set:
        gaveUp: \${ $error.status }
`
    const delaysWith = async (seed: number) => {
      const run = runOf(runtime, guarded(policy))
      await run.start({}, { seed })
      const delays = await failEveryTime(run)
      expect(run.ending).toEqual({ status: "succeeded", output: { gaveUp: 503 } })
      return delays
    }
    const first = await delaysWith(7)
    expect(first).toHaveLength(4)
    first.forEach((delay, n) => {
      expect(delay).toBeGreaterThanOrEqual(10_000 * 2 ** n)
      expect(delay).toBeLessThanOrEqual(10_000 * 2 ** n + 2_000)
    })
    expect(await delaysWith(7)).toEqual(first)
    expect(await delaysWith(8)).not.toEqual(first)
  })

  it("constant and linear backoff; each attempt calls under a new run id", async () => {
    for (const [backoff, expected] of [
      ["constant", [5_000, 5_000, 5_000]],
      ["linear", [5_000, 10_000, 15_000]]
    ] as const) {
      const run = runOf(
        runtime,
        guarded(`retry:\n  delay: PT5S\n  backoff: { ${backoff}: {} }\n  limit: { attempt: { count: 3 } }\n`)
      )
      await run.start({})
      const ids = new Set<string>()
      const delays: Array<number> = []
      while (run.ending === undefined) {
        const call = openCalls(run.state!)[0]
        if (call !== undefined) {
          ids.add(call.runId)
          await run.answer(unreachable)
        } else {
          delays.push(armedTimers(run.state!)[0]!.dueAt - run.now)
          await run.fireNext()
        }
      }
      expect(delays).toEqual(expected)
      expect(ids.size).toBe(4)
    }
  })

  it("the retry's own when/exceptWhen and limit.duration stop retrying", async () => {
    const refused = runOf(runtime, guarded("retry:\n  delay: PT1S\n  exceptWhen: $error.status === 503\n"))
    await refused.start({})
    expect(await failEveryTime(refused)).toEqual([])

    const gated = runOf(
      runtime,
      guarded("retry:\n  delay: PT1S\n  when: $error.status === 503\n  limit: { attempt: { count: 1 } }\n")
    )
    await gated.start({})
    expect(await failEveryTime(gated)).toEqual([1_000])

    const timed = runOf(runtime, guarded("retry:\n  delay: PT1M\n  limit: { duration: PT2M }\n"))
    await timed.start({})
    expect(await failEveryTime(timed)).toEqual([60_000, 60_000])
  })

  it("an attempt past limit.attempt.duration fails with ERR/timeout 408, its call cancelled with kind deadline", async () => {
    const run = runOf(
      runtime,
      guarded(
        "errors:\n  with: { status: 408 }\nretry:\n  delay: PT1S\n  limit:\n    attempt: { count: 1, duration: PT2M }\n"
      )
    )
    await run.start({}, { limits: { defaultCallWait: 3_600_000 } })
    const [first] = openCalls(run.state!)
    await run.fireNext()
    expect(run.now).toBe(startAt + 120_000)
    expect(run.last).toContainEqual({
      kind: "cancel_call",
      key: first!.key,
      runId: first!.runId,
      cancelKind: "deadline"
    })
    expect(outcomesOf(run.steps)).toEqual(["/do/0/check/try/0/assess cancelled", "/do/0/check waiting"])
    await run.fireNext()
    const [second] = openCalls(run.state!)
    expect(second!.runId).not.toBe(first!.runId)
    await run.fireNext()
    expect(run.ending).toEqual({ status: "succeeded", output: {} })
  })

  it("an error raised inside catch.do propagates", async () => {
    const run = runOf(
      runtime,
      guarded(
        "do:\n  - again:\n      raise:\n        error: { type: https://example.com/again, status: 422, title: Again }\n"
      )
    )
    await run.start({})
    await run.answer(unreachable)
    expect(run.ending).toMatchObject({
      status: "rejected",
      reason: "invalid_input",
      detail: "Again (at /do/0/check/catch/do/0/again)"
    })
  })
})
