// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { afterAll, describe, expect, it } from "vitest"
import { standardErrorBase } from "../../../src/formats/workflow/WorkflowError.js"
import { openCalls, openListens } from "../../../src/workflow/engine/runState.js"
import { expressionRuntime, outcomesOf, runOf } from "./engineFixture.js"
import { executionKeyOf } from "./keys.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

const branchCall = (name: string) => `          - ${name}:
              call: run_definition
              with: { type: computation, name: ${name} }
`

const forkOf = (compete: boolean, branches: string, after = "") => `  - both:
      fork:
        compete: ${compete}
        branches:
${branches}${after}`

describe("fork", () => {
  it("outputs the branch outputs in written order", async () => {
    const run = runOf(runtime, forkOf(false, branchCall("first-one") + branchCall("second-one")))
    await run.start({})
    const [first, second] = openCalls(run.state!)
    await run.answer({ status: "succeeded", output: 2 }, 1)
    expect(run.ending).toBeUndefined()
    await run.answer({ status: "succeeded", output: 1 })
    expect(run.ending).toEqual({ status: "succeeded", output: [1, 2] })
    expect(first!.runId).not.toBe(second!.runId)
  })

  it("without compete, the first failure raises and cancels the others with parent_ended (W8)", async () => {
    const run = runOf(runtime, forkOf(false, branchCall("first-one") + branchCall("second-one")))
    await run.start({})
    const [first] = openCalls(run.state!)
    await run.answer({ status: "failed" }, 1)
    expect(run.last).toContainEqual({
      kind: "cancel_call",
      key: first!.key,
      runId: first!.runId,
      cancelKind: "parent_ended"
    })
    expect(run.ending).toMatchObject({
      status: "rejected",
      reason: "unavailable",
      detail: "computation second-one failed (at /do/0/both/fork/branches/1/second-one)"
    })
  })

  it("with compete, the first branch done wins and the others are cancelled; all failing raises the first failure", async () => {
    const run = runOf(runtime, forkOf(true, branchCall("first-one") + branchCall("second-one")))
    await run.start({})
    const [first] = openCalls(run.state!)
    await run.answer({ status: "failed" })
    expect(run.ending).toBeUndefined()
    await run.answer({ status: "succeeded", output: "won" })
    expect(run.ending).toEqual({ status: "succeeded", output: "won" })

    const lost = runOf(runtime, forkOf(true, branchCall("first-one") + branchCall("second-one")))
    await lost.start({})
    await lost.answer({ status: "succeeded", output: "fast" }, 1)
    expect(lost.last).toContainEqual(expect.objectContaining({ kind: "cancel_call", cancelKind: "parent_ended" }))
    expect(lost.ending).toEqual({ status: "succeeded", output: "fast" })

    const failing = runOf(runtime, forkOf(true, branchCall("first-one") + branchCall("second-one")))
    await failing.start({})
    await failing.answer({ status: "unreachable" }, 1)
    await failing.answer({ status: "failed" })
    expect(failing.ending).toMatchObject({
      detail: "computation second-one could not be reached (at /do/0/both/fork/branches/1/second-one)"
    })
    expect(first).toBeDefined()
  })

  it("then: end in a branch ends the run with that branch's output and cancels the others (W8)", async () => {
    const run = runOf(
      runtime,
      forkOf(
        false,
        `${branchCall("first-one")}          - quick:
              set: { quick: true }
              then: end
`,
        "  - never:\n      set: { never: true }\n"
      )
    )
    await run.start({})
    expect(run.ending).toEqual({ status: "succeeded", output: { quick: true } })
    expect(run.last).toContainEqual(expect.objectContaining({ kind: "cancel_call", cancelKind: "parent_ended" }))
  })

  it("keeps exports inside a branch; after the fork $context is what it was (W8)", async () => {
    const run = runOf(
      runtime,
      `  - before:
      set: { x: 1 }
      export: { as: '\${ ({ where: "before" }) }' }
${forkOf(
  false,
  `          - one:
              set:
                saw: \${ $context.where }
              export: { as: '\${ ({ where: "one" }) }' }
          - two:
              do:
                - inner:
                    set: { x: 1 }
                    export: { as: '\${ ({ where: "two" }) }' }
                - read:
                    set:
                      saw: \${ $context.where }
`
)}  - after:
      set:
        branches: \${ $data }
        context: \${ $context.where }
`
    )
    await run.start({})
    expect(run.ending).toEqual({
      status: "succeeded",
      output: { branches: [{ saw: "before" }, { saw: "two" }], context: "before" }
    })
  })
})

const listenOf = (to: string, read = "") => `  - hear:
      listen:
        to:
${to}${read}`

describe("listen", () => {
  it("one: takes the first matching event sent, by literal and expression filters, and outputs its data", async () => {
    const run = runOf(
      runtime,
      listenOf(`          one:
            with:
              type: com.example.decided
              data: '\${ typeof $data.approved === "boolean" }'
`)
    )
    await run.start({})
    const key = executionKeyOf("/do/0/hear", 1)
    expect(run.last).toContainEqual({
      kind: "listen",
      key,
      filters: [{ reference: "/do/0/hear/listen/to/one", type: "com.example.decided" }]
    })
    expect(openListens(run.state!)).toHaveLength(1)
    await run.send({ type: "com.example.other", data: { approved: true } })
    await run.send({ type: "com.example.decided", data: { approved: "yes" } })
    expect(run.ending).toBeUndefined()
    await run.send({ type: "com.example.decided", data: { approved: false } })
    expect(run.ending).toEqual({ status: "succeeded", output: [{ approved: false }] })
    expect(run.last).toContainEqual({ kind: "unlisten", key })
  })

  it("takes from the inbox events sent before it started, and completes without registering", async () => {
    const run = runOf(
      runtime,
      `  - pause:\n      wait: PT1M\n${listenOf("          any:\n            - with: { type: a.one }\n            - with: { type: a.two }\n")}`
    )
    await run.start({})
    await run.send({ id: "x1", type: "a.two", data: 2 })
    await run.send({ id: "x2", type: "a.one", data: 1 })
    await run.fireNext()
    expect(run.ending).toEqual({ status: "succeeded", output: [2] })
    expect(run.outputs.some((output) => output.kind === "listen")).toBe(false)
  })

  it("all: takes one event per filter in any order, outputs in filter order, recording waiting again", async () => {
    const run = runOf(
      runtime,
      listenOf(
        "          all:\n            - with: { type: a.one }\n            - with: { type: a.two }\n",
        "        read: envelope\n"
      )
    )
    await run.start({})
    await run.send({ id: "y2", type: "a.two", data: 2 })
    expect(run.steps).toEqual([
      expect.objectContaining({ outcome: "waiting", times: 2, waits_for: "event", caused_by: "input" })
    ])
    await run.send({ id: "y1", type: "a.one", data: 1, subject: "s" })
    expect(run.ending).toEqual({
      status: "succeeded",
      output: [
        { id: "y1", source: "/callers/test", time: "2026-03-01T00:00:00Z", type: "a.one", data: 1, subject: "s" },
        { id: "y2", source: "/callers/test", time: "2026-03-01T00:00:00Z", type: "a.two", data: 2 }
      ]
    })
  })

  it("read: raw gives each whole event, like envelope (W9)", async () => {
    const run = runOf(runtime, listenOf("          one:\n            with: { type: a.one }\n", "        read: raw\n"))
    await run.start({})
    await run.send({ id: "r1", type: "a.one", data: 1, region: "eu" })
    expect(run.ending).toEqual({
      status: "succeeded",
      output: [
        { id: "r1", source: "/callers/test", time: "2026-03-01T00:00:00Z", type: "a.one", data: 1, region: "eu" }
      ]
    })
  })

  it("ignores a repeated event id and an offered event no listen takes", async () => {
    const run = runOf(runtime, listenOf("          one:\n            with: { type: a.one }\n"))
    await run.start({})
    expect(await run.send({ id: "z", type: "a.other" }, true)).toBeUndefined()
    await run.send({ id: "z", type: "a.other" })
    expect(await run.send({ id: "z", type: "a.one" })).toBeUndefined()
    expect(await run.send({ id: "w", type: "a.one", data: "offered" }, true)).toBeDefined()
    expect(run.ending).toEqual({ status: "succeeded", output: ["offered"] })
  })

  it("keeps taken ids beside the state, and a state of before ADR 0420 keeps its own stale", async () => {
    const run = runOf(runtime, listenOf("          one:\n            with: { type: a.one }\n"))
    await run.start({})
    // A run recorded before ADR 0420 carries the ids it took in its state.
    run.state = { ...run.state!, seen: ["old-1"] }
    run.rebuilt = { ...run.rebuilt!, seen: ["old-1"] }
    expect(await run.send({ id: "old-1", type: "a.one" })).toBeUndefined()
    const taken = await run.send({ id: "new-1", type: "a.one", data: "new" })
    expect(taken?.seen).toEqual(["new-1"])
    expect(run.state!.seen).toEqual(["old-1"])
    expect(run.ending).toEqual({ status: "succeeded", output: ["new"] })
  })

  it("a filter failing on a sent event raises ERR/expression at the listen; on an offered one it declines", async () => {
    const run = runOf(
      runtime,
      listenOf("          one:\n            with:\n              type: a.one\n              data: ${ $data.x.y }\n")
    )
    await run.start({})
    expect(await run.send({ id: "o", type: "a.one", data: {} }, true)).toBeUndefined()
    await run.send({ id: "s", type: "a.one", data: {} })
    expect(run.steps[0]).toMatchObject({ outcome: "raised", error: { type: `${standardErrorBase}expression` } })
    expect(run.ending).toMatchObject({ status: "rejected", reason: "invalid_input" })
  })

  it("a listen whose filter type is computed registers nothing for playbook events", async () => {
    const run = runOf(
      runtime,
      listenOf("          one:\n            with:\n              type: ${ $data === 'a.one' }\n")
    )
    await run.start({})
    expect(run.last.some((output) => output.kind === "listen")).toBe(false)
    await run.send({ type: "a.one" })
    expect(run.ending?.status).toBe("succeeded")
  })

  it("an offered event reaches only the listens it is offered to, by literal filters, once per record id", async () => {
    const run = runOf(
      runtime,
      listenOf(`          all:
            - with:
                type: '\${ "a.one" }'
            - with: { type: a.one }
`)
    )
    await run.start({})
    const key = executionKeyOf("/do/0/hear", 1)
    const event = { id: "pub-1", type: "a.one", source: "/ledger", time: "2026-03-01T00:00:00Z", data: "offered" }
    expect(await run.offer(event, "record-1", ["another listen"])).toBeUndefined()
    expect(await run.offer(event, "record-1", [key])).toBeDefined()
    expect(outcomesOf(run.steps)).toEqual(["/do/0/hear waiting"])
    expect(await run.offer({ ...event, id: "pub-2" }, "record-1", [key])).toBeUndefined()
    await run.send({ id: "sent", type: "a.one", data: "sent" })
    expect(run.ending).toEqual({ status: "succeeded", output: ["sent", "offered"] })
  })

  it("a timeout on a listen raises ERR/timeout 408 and closes it", async () => {
    const run = runOf(
      runtime,
      `${listenOf("          one:\n            with: { type: a.one }\n")}      timeout:\n        after: PT5M\n`
    )
    await run.start({})
    await run.fireNext()
    expect(run.last).toContainEqual({ kind: "unlisten", key: executionKeyOf("/do/0/hear", 1) })
    expect(openListens(run.state!)).toEqual([])
    expect(outcomesOf(run.steps)).toEqual(["/do/0/hear timed_out"])
  })
})
