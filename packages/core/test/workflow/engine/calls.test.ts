// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { afterAll, describe, expect, it } from "vitest"
import { standardErrorBase } from "../../../src/formats/workflow/WorkflowError.js"
import { openCalls } from "../../../src/workflow/engine/runState.js"
import { uuidV5 } from "../../../src/workflow/engine/uuidV5.js"
import type { CallAnswer, RunLimits } from "../../../src/workflow/engine/WorkflowInput.js"
import { expressionRuntime, outcomesOf, runOf, startAt } from "./engineFixture.js"
import { executionKeyOf } from "./keys.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

/** The call task of these tests, its lines indented by `indent` spaces. */
const callAt = (indent: number) =>
  `- assess:
    call: run_definition
    with:
      type: reasoning
      name: assess-invoice
      input:
        invoice: \${ $data.invoice }
`.replace(/^(?=.)/gm, " ".repeat(indent))

const callTask = callAt(2)

const caught = `  - guarded:
      try:
${callAt(8)}      catch:
        as: failure
        do:
          - show:
              set:
                error: \${ $failure }
`

const err = (name: string) => `${standardErrorBase}${name}`
const prob = (name: string) => `https://on.auto/problems/${name}`

describe("call: run_definition", () => {
  it("starts the callee under the UUIDv5 of the call key, waits, and hands its output on", async () => {
    const run = runOf(runtime, callTask)
    await run.start({ invoice: { number: "A-1" } })
    const key = executionKeyOf("/do/0/assess", 1)
    const child = uuidV5(key)
    expect(run.last).toContainEqual({
      kind: "start_call",
      key,
      runId: child,
      reference: "/do/0/assess",
      type: "reasoning",
      name: "assess-invoice",
      input: { invoice: { number: "A-1" } },
      deadlineAt: startAt + 70_000
    })
    expect(run.last).toContainEqual({ kind: "arm_timer", id: "1", dueAt: startAt + 70_000 })
    expect(run.steps).toEqual([
      {
        reference: "/do/0/assess",
        run: 1,
        outcome: "waiting",
        name: "assess",
        times: 1,
        caused_by: "input",
        waits_for: "call",
        child
      }
    ])
    expect(openCalls(run.state!)).toEqual([{ key, runId: child, deadlineAt: startAt + 70_000 }])
    await run.answer({ status: "succeeded", output: { payable: true } })
    expect(run.ending).toEqual({ status: "succeeded", output: { payable: true } })
    expect(run.last).toContainEqual({ kind: "cancel_timer", id: "1" })
  })

  it("takes the task's wait bound, never past the run's end", async () => {
    const later = runOf(runtime, callTask)
    await later.start({}, { limits: { defaultCallWait: 5_000, withinCallWait: 4_000 } })
    expect(openCalls(later.state!)[0]!.deadlineAt).toBe(startAt + 5_000)
    const within = runOf(runtime, callTask.replace("reasoning", "computation"))
    await within.start({}, { limits: { defaultCallWait: 5_000, withinCallWait: 4_000 } })
    expect(openCalls(within.state!)[0]!.deadlineAt).toBe(startAt + 4_000)
    // A run an earlier engine started keeps a bound per call task (ADR 0265): its calls still wait that.
    const earlier = runOf(runtime, callTask)
    const earlierLimits = { callWaits: { "/do/0/assess": 3_000 } } as Partial<RunLimits>
    await earlier.start({}, { limits: earlierLimits })
    expect(openCalls(earlier.state!)[0]!.deadlineAt).toBe(startAt + 3_000)
    const capped = runOf(runtime, callTask)
    await capped.start({}, { limits: { endsBy: startAt + 1_000 } })
    expect(openCalls(capped.state!)[0]!.deadlineAt).toBe(startAt + 1_000)
  })

  it("raises ERR/runtime 409 without starting when it would sit deeper than 8", async () => {
    const run = runOf(runtime, callTask)
    await run.start({}, { limits: { callDepth: 8 } })
    expect(run.outputs.some((output) => output.kind === "start_call")).toBe(false)
    expect(run.ending).toMatchObject({ status: "rejected", reason: "invalid_input" })
    expect(run.steps[0]!.error?.type).toBe(err("runtime"))
  })

  it("a call's deadline raises ERR/timeout 408 and cancels the callee with kind deadline", async () => {
    const run = runOf(runtime, callTask)
    await run.start({})
    const [call] = openCalls(run.state!)
    await run.fireNext()
    expect(run.last).toContainEqual({ kind: "cancel_call", key: call!.key, runId: call!.runId, cancelKind: "deadline" })
    expect(run.ending).toEqual({
      status: "rejected",
      reason: "unavailable",
      detail: "reasoning assess-invoice ran past its wait (at /do/0/assess)",
      cause: { step: "do/0/assess", run_id: call!.runId, status: "timed_out" }
    })
    expect(
      await run.input({ kind: "call_answered", key: call!.key, at: run.now, answer: { status: "failed" } })
    ).toBeUndefined()
  })

  it("a repeated answer is stale", async () => {
    const run = runOf(runtime, `${callTask}  - pause:\n      wait: PT1H\n`)
    await run.start({})
    const [call] = openCalls(run.state!)
    await run.answer({ status: "succeeded", output: 1 })
    const again = await run.input({
      kind: "call_answered",
      key: call!.key,
      at: run.now,
      answer: { status: "succeeded", output: 2 }
    })
    expect(again).toBeUndefined()
  })

  it("maps every callee ending to the error table of §7.4", async () => {
    const rows: ReadonlyArray<readonly [CallAnswer, string, number]> = [
      [{ status: "rejected", reason: "invalid_input", detail: "bad" }, err("validation"), 400],
      [{ status: "rejected", reason: "forbidden" }, err("authorization"), 403],
      [{ status: "rejected", reason: "not_found" }, err("configuration"), 404],
      [{ status: "rejected", reason: "conflict", kind: "unworkable" }, err("runtime"), 409],
      [{ status: "rejected", reason: "conflict", kind: "tools_called" }, prob("tools_called"), 409],
      [{ status: "rejected", reason: "unavailable", kind: "rebuilding" }, err("communication"), 503],
      [
        { status: "rejected", reason: "unavailable", kind: "tools_unfinished", because: "mcp_server_failed" },
        prob("tools_unfinished"),
        503
      ],
      [{ status: "rejected", reason: "cancelled", kind: "deadline" }, prob("cancelled"), 409],
      [{ status: "rejected", reason: "unanswered", kind: "expired" }, prob("unanswered"), 410],
      [{ status: "failed", detail: "broke" }, err("runtime"), 500],
      [{ status: "unreachable" }, err("communication"), 503],
      [{ status: "rejected", reason: "invalid_arguments", detail: "no name" }, err("validation"), 400],
      [{ status: "rejected", reason: "oversized" }, err("runtime"), 500]
    ]
    for (const [answer, type, status] of rows) {
      const run = runOf(runtime, caught)
      await run.start({})
      const [call] = openCalls(run.state!)
      await run.answer(answer)
      const named = type === prob("cancelled") || type === prob("unanswered")
      if (named) {
        // W6: a catch without a filter does not catch cancellations and unanswered requests
        expect(run.ending?.status, type).toBe("rejected")
        continue
      }
      const error = (run.ending as { output: { error: Record<string, unknown> } }).output.error
      expect(error, JSON.stringify(answer)).toMatchObject({ type, status, instance: "/do/0/guarded/try/0/assess" })
      if (answer.status === "rejected") {
        expect(error.title).toBe(`reasoning assess-invoice was rejected: ${answer.reason}`)
        if (answer.kind !== undefined) expect(error.kind).toBe(answer.kind)
        if (answer.because !== undefined) expect(error.because).toBe(answer.because)
      }
      if (answer.status !== "succeeded" && answer.detail !== undefined) expect(error.detail).toBe(answer.detail)
      expect(call).toBeDefined()
    }
  })

  it("ends the run by the uncaught callee errors as §14 says", async () => {
    const endings: ReadonlyArray<readonly [CallAnswer, Record<string, unknown>]> = [
      [{ status: "rejected", reason: "cancelled", kind: "deadline", detail: "late" }, { reason: "invalid_input" }],
      [
        { status: "rejected", reason: "unanswered", kind: "expired" },
        { reason: "unanswered", kind: "expired" }
      ],
      [
        { status: "rejected", reason: "unavailable", kind: "tools_unfinished", because: "mcp_server_failed" },
        { reason: "unavailable", kind: "tools_unfinished", because: "mcp_server_failed" }
      ],
      [
        { status: "rejected", reason: "conflict", kind: "tools_called" },
        { reason: "conflict", kind: "tools_called" }
      ],
      [
        { status: "rejected", reason: "unavailable", kind: "mcp_server_failed", because: "x" },
        { reason: "unavailable" }
      ],
      [{ status: "unreachable" }, { reason: "unavailable" }]
    ]
    for (const [answer, ending] of endings) {
      const run = runOf(runtime, callTask)
      await run.start({})
      const [call] = openCalls(run.state!)
      await run.answer(answer)
      expect(run.ending).toMatchObject({ status: "rejected", ...ending })
      const shown = run.ending as { kind?: string; cause: Record<string, unknown> }
      if (ending.kind === undefined) expect(shown.kind).toBeUndefined()
      expect(shown.cause).toMatchObject({ step: "do/0/assess", run_id: call!.runId, status: answer.status })
    }
  })

  it("a catch naming PROB/cancelled catches it (W6) and can test its kind (W7)", async () => {
    const run = runOf(
      runtime,
      `  - guarded:
      try:
${callAt(8)}      catch:
        errors:
          with:
            type: https://on.auto/problems/cancelled
            kind: parent_ended
        do:
          - show:
              set:
                caught: \${ $error.kind }
`
    )
    await run.start({})
    await run.answer({ status: "rejected", reason: "cancelled", kind: "parent_ended" })
    expect(run.ending).toEqual({ status: "succeeded", output: { caught: "parent_ended" } })
  })

  it("each run of a call task is a new callee run id", async () => {
    const run = runOf(
      runtime,
      `  - each:
      for: { in: $data.xs }
      do:
${callAt(8)}`
    )
    await run.start({ xs: [1, 2] })
    const first = openCalls(run.state!)[0]!
    await run.answer({ status: "succeeded", output: "one" })
    const second = openCalls(run.state!)[0]!
    expect(second.key).toBe(executionKeyOf("/do/0/each/do/0/assess", 2))
    expect(second.runId).not.toBe(first.runId)
    await run.answer({ status: "succeeded", output: "two" })
    expect(run.ending).toEqual({ status: "succeeded", output: "two" })
    expect(outcomesOf(run.steps)).toEqual(["/do/0/each/do/0/assess completed", "/do/0/each completed"])
  })

  it("cancel_requested cancels every open call, disarms timers and settles cancelled", async () => {
    const run = runOf(
      runtime,
      `  - both:
      fork:
        branches:
${callAt(10)}
          - later:
              wait: PT1H
`
    )
    await run.start({})
    const [call] = openCalls(run.state!)
    await run.cancel("requested", "Not needed any more")
    expect(run.ending).toEqual({
      status: "rejected",
      reason: "cancelled",
      kind: "requested",
      detail: "Not needed any more"
    })
    expect(run.last).toContainEqual({
      kind: "cancel_call",
      key: call!.key,
      runId: call!.runId,
      cancelKind: "parent_ended"
    })
    const disarmed = run.last.filter((output) => output.kind === "cancel_timer").map((output) => output.id)
    expect(disarmed.sort()).toEqual(["1", "2", "3"])
    expect(outcomesOf(run.steps)).toEqual([
      "/do/0/both/fork/branches/0/assess cancelled",
      "/do/0/both/fork/branches/1/later cancelled",
      "/do/0/both cancelled"
    ])
  })
})
