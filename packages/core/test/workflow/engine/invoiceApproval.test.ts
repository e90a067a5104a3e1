import { afterAll, describe, expect, it } from "vitest"
import { armedTimers, openCalls } from "../../../src/workflow/engine/runState.js"
import { uuidV5 } from "../../../src/workflow/engine/uuidV5.js"
import { invoiceApproval } from "../invoiceApproval.js"
import { readOrFail } from "../workflowFixture.js"
import { expressionRuntime, startAt, TestRun } from "./engineFixture.js"
import { executionKeyOf } from "./keys.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

const document = readOrFail(invoiceApproval)
const small = { invoice: { number: "INV-1", amount_cents: 120_000, supplier: "Acme" } }
const large = { invoice: { number: "INV-2", amount_cents: 900_000, supplier: "Acme" } }

/** A run of the invoice example past its assessment. */
const assessed = async (input: unknown, assessment: unknown) => {
  const run = new TestRun(runtime, document)
  await run.start(input)
  await run.answer({ status: "succeeded", output: assessment })
  return run
}

describe("the invoice approval example (workflow-format.md §1.2)", () => {
  it("auto-approves a small low-risk invoice and announces it, skipping approved by the forward jump", async () => {
    const run = await assessed(small, { payable: true, risk: "low" })
    expect(run.ending).toEqual({
      status: "succeeded",
      output: { number: "INV-1", status: "approved", note: "Approved without review" }
    })
    const id = uuidV5(executionKeyOf("/do/9/announce", 1))
    expect(run.last).toContainEqual({
      kind: "emit",
      id,
      event: {
        type: "com.example.invoice.approved",
        source: "https://example.com/finance",
        subject: "INV-1",
        data: { number: "INV-1" },
        id,
        time: new Date(startAt).toISOString()
      }
    })
    expect(run.steps.map((step) => step.name)).toEqual([
      "assess",
      "check",
      "stop-if-unpayable",
      "route",
      "auto-approve",
      "announce"
    ])
  })

  it("retries an unreachable assessment after ≈10, 20, 40 and 80 s, then gives up: rejected unavailable", async () => {
    const run = new TestRun(runtime, document)
    await run.start(small)
    const delays: Array<number> = []
    while (run.ending === undefined) {
      if (openCalls(run.state!).length > 0) await run.answer({ status: "unreachable" })
      else {
        delays.push(armedTimers(run.state!)[0]!.dueAt - run.now)
        await run.fireNext()
      }
    }
    expect(delays).toHaveLength(4)
    delays.forEach((delay, n) => {
      expect(delay).toBeGreaterThanOrEqual(10_000 * 2 ** n)
      expect(delay).toBeLessThanOrEqual(10_000 * 2 ** n + 2_000)
    })
    expect(run.ending).toEqual({
      status: "rejected",
      reason: "unavailable",
      detail: "The invoice could not be assessed (at /do/0/check/catch/do/0/give-up)",
      cause: { step: "do/0/check/catch/do/0/give-up" }
    })
  })

  it("stops an unpayable invoice: rejected invalid_input with the spec's detail", async () => {
    const run = await assessed(small, { payable: false, risk: "low" })
    expect(run.ending).toEqual({
      status: "rejected",
      reason: "invalid_input",
      detail: "The invoice cannot be paid (at /do/1/stop-if-unpayable)",
      cause: { step: "do/1/stop-if-unpayable" }
    })
  })

  it("asks about a large invoice and follows the decision event sent to the run", async () => {
    const run = await assessed(large, { payable: true, risk: "low" })
    expect(run.ending).toBeUndefined()
    await run.send({
      id: "decision-1",
      type: "com.example.invoice.decided",
      data: { approved: false, reason: "Duplicate" }
    })
    expect(run.ending).toEqual({
      status: "succeeded",
      output: { number: "INV-2", status: "rejected", note: "Duplicate" }
    })
  })

  it("escalates when no decision comes within 7 days", async () => {
    const run = await assessed(large, { payable: true, risk: "high" })
    await run.fireNext()
    expect(run.now).toBe(startAt + 7 * 86_400_000)
    expect(run.ending).toEqual({
      status: "succeeded",
      output: {
        number: "INV-2",
        status: "escalated",
        note: "No decision for INV-2 (wait-for-decision timed out)"
      }
    })
  })

  it("the document's 14-day timeout rejects a run still going: unavailable", async () => {
    const run = await assessed(large, { payable: true, risk: "high" })
    const runTimeout = armedTimers(run.state!).find((timer) => timer.dueAt === startAt + 14 * 86_400_000)!
    run.now = runTimeout.dueAt
    await run.fire(runTimeout.id)
    expect(run.ending).toEqual({ status: "rejected", reason: "unavailable", detail: "The run timed out (at /)" })
    expect(armedTimers(run.state!)).toEqual([])
  })
})
