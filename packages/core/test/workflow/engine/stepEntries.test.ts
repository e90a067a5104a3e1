import { afterAll, describe, expect, it } from "vitest"
import type { StepEntry } from "../../../src/workflow/engine/StepEntry.js"
import { expressionRuntime, runOf } from "./engineFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

/** Entries as `name outcome <- cause` lines. */
const chain = (steps: ReadonlyArray<StepEntry>) =>
  steps.map((step) => {
    const cause = step.caused_by === "input" ? "input" : steps[step.caused_by]!.name
    return `${step.name} ${step.outcome} <- ${cause}`
  })

describe("step entries (workflow-format.md §16.2)", () => {
  it("a container still running stays started; its first task is caused by it, a branch by its fork", async () => {
    const run = runOf(
      runtime,
      `  - outer:
      do:
        - first:
            set: { a: 1 }
        - both:
            fork:
              branches:
                - left:
                    wait: PT1M
                - right:
                    call: run_definition
                    with: { type: computation, name: calc-it }
`
    )
    await run.start({})
    expect(chain(run.steps)).toEqual([
      "outer started <- input",
      "first completed <- outer",
      "both started <- first",
      "left waiting <- both",
      "right waiting <- both"
    ])
    expect(run.steps[4]).toMatchObject({ waits_for: "call", child: expect.any(String) })
    await run.fireNext()
    expect(chain(run.steps)).toEqual(["left completed <- input"])
    await run.answer({ status: "succeeded", output: 2 })
    expect(chain(run.steps)).toEqual(["right completed <- input", "both completed <- right", "outer completed <- both"])
  })

  it("a retry's waiting is caused by the failed attempt; the next attempt starts new runs", async () => {
    const run = runOf(
      runtime,
      `  - guard:
      try:
        - work:
            call: run_definition
            with: { type: computation, name: calc-it }
      catch:
        retry:
          delay: PT1S
          limit: { attempt: { count: 1 } }
`
    )
    await run.start({})
    await run.answer({ status: "failed" })
    expect(chain(run.steps)).toEqual(["work raised <- input", "guard waiting <- work"])
    expect(run.steps[1]).toMatchObject({ waits_for: "timer", run: 1 })
    await run.fireNext()
    expect(run.steps.map((step) => [step.name, step.outcome, step.run])).toEqual([["work", "waiting", 2]])
  })

  it("cuts names at 256 bytes", async () => {
    const name = `t${"é".repeat(200)}`
    const run = runOf(runtime, `  - ${name}:\n      set: { a: 1 }\n`)
    await run.start({})
    expect(new TextEncoder().encode(run.steps[0]!.name).length).toBeLessThanOrEqual(256)
    expect(name.startsWith(run.steps[0]!.name)).toBe(true)
  })
})
