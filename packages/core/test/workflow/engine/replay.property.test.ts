// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
// biome-ignore-all lint/suspicious/noThenProperty: workflow tasks name their flow `then`
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { stringify } from "yaml"
import { armedTimers, isEnded, lastInputAt, openCalls, openListens } from "../../../src/workflow/engine/runState.js"
import type { CallAnswer } from "../../../src/workflow/engine/WorkflowInput.js"
import { readOrFail } from "../workflowFixture.js"
import { expressionRuntime, TestRun } from "./engineFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

type TaskDefinition = Record<string, unknown>

const bump = "${ ({ n: (($data ?? {}).n ?? 0) + 1 }) }"

/** Leaf tasks: set, wait, raise, call, listen, emit. */
const leaf: fc.Arbitrary<TaskDefinition> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ set: { n: "${ (($data ?? {}).n ?? 0) + 1 }" } }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 90 }).map((seconds) => ({ wait: `PT${seconds}S` })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(503, 422)
      .map((status) => ({ raise: { error: { type: "https://x.example/e", status } } }))
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom("computation", "workflow")
      .map((type) => ({ call: "run_definition", with: { type, name: "calc-it" } }))
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("one", "any", "all").map((to) => ({
      listen: {
        to:
          to === "one"
            ? { one: { with: { type: "a.one" } } }
            : { [to]: [{ with: { type: "a.one" } }, { with: { type: "a.two", data: "${ $data !== null }" } }] }
      }
    }))
  },
  {
    weight: 1,
    arbitrary: fc.constant({ emit: { event: { with: { type: "a.emitted", source: "https://x.example" } } } })
  }
)

/** Common fields a task may carry: if, output.as, export.as, timeout, then. */
const common = fc.record(
  {
    if: fc.constantFrom("${ (($data ?? {}).n ?? 0) < 3 }", "true"),
    output: fc.constant({ as: bump }),
    export: fc.constant({ as: "${ ({ seen: (($context ?? {}).seen ?? 0) + 1 }) }" }),
    timeout: fc.integer({ min: 1, max: 900 }).map((seconds) => ({ after: `PT${seconds}S` })),
    then: fc.constantFrom("continue", "exit", "end")
  },
  { requiredKeys: [] }
)

/** Task lists of a few shapes: leaves and do/switch/for/try/fork holding lists, names unique per list. */
const taskList = (depth: number, inBranch = false): fc.Arbitrary<Array<Record<string, TaskDefinition>>> => {
  const inner =
    depth <= 0 ? leaf : fc.oneof({ weight: 3, arbitrary: leaf }, { weight: 2, arbitrary: container(depth - 1) })
  return fc
    .array(fc.tuple(inner, common), { minLength: 1, maxLength: inBranch ? 1 : 4 })
    .map((tasks) => tasks.map(([body, fields], index) => ({ [`t${index}`]: { ...fields, ...body } })))
}

const container = (depth: number): fc.Arbitrary<TaskDefinition> =>
  fc.oneof(
    taskList(depth).map((list) => ({ do: list })),
    fc.constant({
      switch: [{ small: { when: "${ (($data ?? {}).n ?? 0) < 2 }", then: "continue" } }, { other: { then: "exit" } }]
    }),
    taskList(depth).map((list) => ({ for: { in: "${ [1, 2] }" }, do: list })),
    fc
      .tuple(taskList(depth), fc.option(taskList(depth), { nil: undefined }), fc.boolean())
      .map(([attempt, recovery, retry]) => ({
        try: attempt,
        catch: {
          ...(retry
            ? { retry: { delay: "PT1S", jitter: { from: "PT0S", to: "PT1S" }, limit: { attempt: { count: 2 } } } }
            : {}),
          ...(recovery === undefined ? {} : { do: recovery })
        }
      })),
    fc
      .tuple(fc.array(taskList(depth, true), { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(([branches, compete]) => ({
        fork: { compete, branches: branches.map((branch, index) => ({ [`b${index}`]: Object.values(branch[0]!)[0]! })) }
      }))
  )

const answers: fc.Arbitrary<CallAnswer> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.integer({ min: 0, max: 5 }).map((n) => ({ status: "succeeded", output: { n } }) as const)
  },
  fc.constant({ status: "failed" } as const),
  fc.constant({ status: "unreachable" } as const),
  fc.constant({ status: "rejected", reason: "cancelled", kind: "deadline" } as const)
)

const action = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("fire" as const), late: fc.integer({ min: 0, max: 5_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("answer" as const), index: fc.nat(3), answer: answers }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("event" as const),
      type: fc.constantFrom("a.one", "a.two", "a.other"),
      id: fc.constantFrom("e1", "e2", "e3", "e4", "e5", "e6"),
      offered: fc.boolean()
    })
  },
  { weight: 1, arbitrary: fc.constant({ kind: "cancel" as const }) }
)

const documentOf = (tasks: Array<Record<string, TaskDefinition>>) =>
  readOrFail(
    stringify(
      { document: { dsl: "1.0.3", namespace: "test", name: "replay", version: "1.0.0" }, do: tasks },
      { aliasDuplicateObjects: false }
    )
  )

describe("replay", () => {
  it("rebuilding the state from the recorded patches equals the live state, and a settled run holds nothing", async () => {
    await fc.assert(
      fc.asyncProperty(taskList(2), fc.array(action, { maxLength: 40 }), fc.integer(), async (tasks, actions, seed) => {
        const run = new TestRun(runtime, documentOf(tasks))
        await run.start({ n: 0 }, { seed })
        for (const next of actions) {
          if (isEnded(run.state!)) break
          const before = lastInputAt(run.state!)
          if (next.kind === "fire" && armedTimers(run.state!).length > 0) {
            run.now += next.late
            await run.fireNext()
          } else if (next.kind === "answer" && openCalls(run.state!).length > 0) {
            await run.answer(next.answer, next.index % openCalls(run.state!).length)
          } else if (next.kind === "event") {
            await run.send({ id: next.id, type: next.type, data: { n: 1 } }, next.offered)
          } else if (next.kind === "cancel") {
            await run.cancel()
          }
          expect(lastInputAt(run.state!)).toBeGreaterThanOrEqual(before)
        }
        if (isEnded(run.state!)) {
          expect(armedTimers(run.state!)).toEqual([])
          expect(openCalls(run.state!)).toEqual([])
          expect(openListens(run.state!)).toEqual([])
        }
        expect(JSON.stringify(run.rebuilt)).toBe(JSON.stringify(run.state))
      }),
      { numRuns: 60 }
    )
  }, 240_000)
})
