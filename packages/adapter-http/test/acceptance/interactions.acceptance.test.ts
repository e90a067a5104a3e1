import { InteractionSettings } from "@runledger/core"
import { Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"

/** A request held for an agent: a refund decision. */
const ask = `---
description: Ask the owner about a refund
to: '{{ input.owner }}'
expires: P1D
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Refund {{ input.cents | divided_by: 100.0 | money }} for order {{ input.order }}?
`

const input = { owner: "dana", cents: 123450, order: "A-17" }

/** Reads a run until it is no longer started, and how long that took. */
const ended = async (server: AcceptanceServer, base: string, runId: string) => {
  const began = performance.now()
  for (;;) {
    const run = await server.send("GET", `${base}/runs/${runId}`)
    if (run.body.status !== "started") return { run: run.body, millis: performance.now() - began }
    if (performance.now() - began > 2_000) throw new Error(`the run ${runId} did not end within 2 s`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

onEveryStore("interaction functions", (store) => {
  let server: AcceptanceServer
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
  }, 60_000)
  afterAll(() => server?.close())

  const playbook = () => newPlaybook(server, "p")
  const save = (base: string, name: string, source: string) =>
    server.send("POST", `${base}/definitions/interaction`, { name, source, diagram: "none", overview: "Asks." })

  it("refuses at save a document with no way to reach its party, and one that calls a tool of no server", async () => {
    const base = await playbook()
    const noDeliver = await save(base, "no-deliver", ask.replace("deliver: agent\n", ""))
    expect(noDeliver.status).toBe(422)
    expect(noDeliver.body.errors[0].pointer).toBe("/source")
    expect(noDeliver.body.errors[0].detail).toMatch(
      /at \/deliver: the request names no way to reach its party: write deliver: agent/
    )
    const notification = await save(base, "notify", ask.replace(/output:[\s\S]*---/, "---"))
    expect(notification.status).toBe(422)
    expect(notification.body.errors[0].detail).toContain("a notification takes no answer")
    const tool = await save(
      base,
      "by-tool",
      "---\ncall: { server: crm, tool: close }\noutput:\n  schema: { type: object }\n---\n"
    )
    expect([tool.status, tool.body.errors[0].pointer, tool.body.errors[0].detail]).toEqual([
      422,
      "/source",
      "Line 2, column 1: at /call: the tool server crm is not set up for this playbook; search lists the servers it may use"
    ])
  })

  it("runs a request: started, listed with every field, answered once, then succeeded with the answer", async () => {
    const base = await playbook()
    expect((await save(base, "ask", ask)).status).toBe(201)
    const started = await server.send("POST", `${base}/definitions/interaction/ask/run`, { input })
    expect([started.status, started.body.status]).toEqual([200, "started"])
    const runId = started.body.run_id
    const listed = await server.send("GET", `${base}/interactions`)
    expect(listed.status).toBe(200)
    expect(listed.body.interactions).toHaveLength(1)
    expect(listed.body.interactions[0]).toMatchObject({
      run_id: runId,
      type: "interaction",
      function: "ask",
      version: 1,
      to: "dana",
      delivery: null,
      message: "Refund $1,234.50 for order A-17?\n",
      takes_answer: true,
      attempts: 0,
      conversation: null,
      answerer: null,
      reply_refusals: 0,
      standing: "held_for_an_agent"
    })
    const request = listed.body.interactions[0]
    expect(Date.parse(request.expires_at) - Date.parse(request.requested_at)).toBe(86_400_000)
    expect(request.answer_schema.properties.decision.enum).toEqual(["grant", "deny"])
    expect((await server.send("GET", `${base}/interactions?to=someone-else`)).body.interactions).toEqual([])

    const wrong = await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "perhaps" } })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors[0].pointer).toBe("/answer/decision")
    let deep: unknown = "grant"
    for (let level = 0; level < 513; level++) deep = [deep]
    const tooDeep = await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: deep } })
    expect([tooDeep.status, tooDeep.body.errors?.[0]?.pointer]).toEqual([422, "/answer"])
    const tooLarge = await server.send("POST", `${base}/runs/${runId}/answer`, {
      answer: { decision: "x".repeat(65_536) }
    })
    expect([tooLarge.status, tooLarge.body.errors?.[0]?.pointer]).toEqual([422, "/answer"])
    const longClaim = await server.send("POST", `${base}/runs/${runId}/answer`, {
      answer: { decision: "grant" },
      claimed_for: "é".repeat(129)
    })
    expect([longClaim.status, longClaim.body.errors?.[0]?.pointer]).toEqual([422, "/claimed_for"])
    const answered = await server.send("POST", `${base}/runs/${runId}/answer`, {
      answer: { decision: "grant" },
      claimed_for: "the CFO"
    })
    expect(answered.status).toBe(200)
    expect(answered.body).toMatchObject({ run_id: runId, answer: { decision: "grant" }, claimed_for: "the CFO" })
    expect(answered.body.answered_by).toEqual({ id: "local", name: expect.any(String) })
    const { run, millis } = await ended(server, base, runId)
    console.log(`answer → succeeded (${store().kind}): ${millis.toFixed(1)} ms`)
    expect(run).toMatchObject({ status: "succeeded", output: { decision: "grant" } })
    const same = await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "grant" } })
    expect([same.status, same.body.answer_id]).toEqual([200, answered.body.answer_id])
    const different = await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "deny" } })
    expect(different.status).toBe(409)
    expect((await server.send("GET", `${base}/interactions`)).body.interactions).toEqual([])
    const unknown = await server.send("POST", `${base}/runs/0199a3c4-7d2e-7c1a-9b3f-000000000000/answer`, { answer: 1 })
    expect(unknown.status).toBe(404)
  })

  it("refuses at the run's start a to or message that cannot be sent as unworkable, a missing field as invalid_input", async () => {
    const base = await playbook()
    expect((await save(base, "ask", ask)).status).toBe(201)
    const start = (runInput: unknown) =>
      server.send("POST", `${base}/definitions/interaction/ask/run`, { input: runInput })
    for (const owner of ["", "x".repeat(257), "a\u0007b", { name: "x" }]) {
      const refused = await start({ ...input, owner })
      expect([refused.status, refused.body.reason, refused.body.kind], JSON.stringify(owner)).toEqual([
        409,
        "conflict",
        "unworkable"
      ])
    }
    const long = await start({ ...input, order: "x".repeat(8_193) })
    expect([long.status, long.body.reason, long.body.kind]).toEqual([409, "conflict", "unworkable"])
    const missing = await start({ owner: "dana", cents: 1 })
    expect([missing.status, missing.body.reason, missing.body.errors?.[0]?.pointer]).toEqual([
      422,
      "invalid_input",
      "/input/order"
    ])
    expect(
      (await save(base, "pay", ask.replace("input.cents | divided_by: 100.0 | money", "input.cents | money"))).status
    ).toBe(201)
    const money = await server.send("POST", `${base}/definitions/interaction/pay/run`, {
      input: { ...input, cents: "lots" }
    })
    expect([money.status, money.body.reason, money.body.detail]).toEqual([
      422,
      "invalid_input",
      expect.stringContaining("money takes a number or a text holding one")
    ])
    expect((await server.send("GET", `${base}/interactions`)).body.interactions).toEqual([])
  })

  it("cancels a waiting request: cancelling, then rejected cancelled/requested; an answer after it is conflict", async () => {
    const base = await playbook()
    await save(base, "ask", ask)
    const runId = (await server.send("POST", `${base}/definitions/interaction/ask/run`, { input })).body.run_id
    const cancel = await server.send("POST", `${base}/runs/${runId}/cancel`, { reason: "Order withdrawn" })
    expect([cancel.status, cancel.body.status]).toEqual([200, "started"])
    const { run } = await ended(server, base, runId)
    expect(run.rejection).toMatchObject({ reason: "cancelled", kind: "requested", detail: "Order withdrawn" })
    const late = await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "grant" } })
    expect(late.status).toBe(409)
    const again = await server.send("POST", `${base}/definitions/interaction/ask/run`, { input, run_id: runId })
    expect(again.status).toBe(409)
  })
})

/** The open requests a playbook holds at most in the suite below. */
const cap = 3

onEveryStore("interaction functions on a clock the test moves, with a cap of 3 open requests", (store) => {
  const clock = makeShiftedClock()
  let server: AcceptanceServer
  beforeAll(async () => {
    server = await startAcceptanceServer(
      store(),
      {},
      Layer.provideMerge(
        Layer.succeed(InteractionSettings, { openRequestCap: cap, sweepMillis: 30_000, concurrency: 4 }),
        clock.layer
      )
    )
  }, 60_000)
  afterAll(() => server?.close())

  /** A new playbook with the ask function saved; its base path. */
  const playbookWithAsk = async () => {
    const id = `p${crypto.randomUUID().slice(0, 8)}`
    expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
    const base = `/v1/orgs/local/playbooks/${id}`
    const saved = await server.send("POST", `${base}/definitions/interaction`, {
      name: "ask",
      source: ask,
      diagram: "none",
      overview: "Asks."
    })
    expect(saved.status).toBe(201)
    return base
  }

  it("expiry ends the run unanswered/expired; the same run id and input then answers 410 unanswered", async () => {
    const base = await playbookWithAsk()
    const runId = "0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a"
    const started = await server.send("POST", `${base}/definitions/interaction/ask/run`, { input, run_id: runId })
    expect([started.status, started.body.status]).toEqual([200, "started"])
    clock.shift("23 hours")
    expect((await server.send("GET", `${base}/runs/${runId}`)).body.status).toBe("started")
    clock.shift("1 hour")
    const began = performance.now()
    let run = (await server.send("GET", `${base}/runs/${runId}`)).body
    while (run.status === "started") {
      if (performance.now() - began > 2_000) throw new Error(`the run ${runId} did not end within 2 s`)
      // The host's timer loop may have gone back to sleep just before the last shift: a sweep's time passes.
      await new Promise((resolve) => setTimeout(resolve, 5))
      clock.shift("30 seconds")
      run = (await server.send("GET", `${base}/runs/${runId}`)).body
    }
    expect(run).toMatchObject({ status: "rejected", rejection: { reason: "unanswered", kind: "expired" } })
    const again = await server.send("POST", `${base}/definitions/interaction/ask/run`, { input, run_id: runId })
    expect(again.status).toBe(410)
    expect(again.body).toMatchObject({
      type: "https://on.auto/problems/unanswered",
      status: 410,
      reason: "unanswered",
      kind: "expired"
    })
    const late = await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "grant" } })
    expect(late.status).toBe(409)
    expect((await server.send("GET", `${base}/interactions`)).body.interactions).toEqual([])
  })

  /** Moves the clock on until a run is no longer started; the run. */
  const endedOnTheClock = async (base: string, runId: string) => {
    const began = performance.now()
    let run = (await server.send("GET", `${base}/runs/${runId}`)).body
    while (run.status === "started") {
      if (performance.now() - began > 5_000) throw new Error(`the run ${runId} did not end within 5 s`)
      await new Promise((resolve) => setTimeout(resolve, 5))
      clock.shift("30 seconds")
      run = (await server.send("GET", `${base}/runs/${runId}`)).body
    }
    return run
  }

  it("a workflow step's request that expires raises unanswered: caught, the workflow goes on; uncaught, it ends unanswered", async () => {
    const base = await playbookWithAsk()
    const x = "$" + "{"
    const head = "document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\ndo:\n"
    const call = `call: run_definition\nwith:\n  type: interaction\n  name: ask\n  input: ${x} $data }\n`
    const indent = (text: string, spaces: number) => text.replaceAll(/^(?=.)/gm, " ".repeat(spaces))
    const caught =
      `${head}  - attempt:\n      try:\n        - ask:\n${indent(call, 12)}` +
      "      catch:\n        errors:\n          with: { type: https://on.auto/problems/unanswered }\n        do:\n" +
      `          - gaveUp:\n              set:\n                decision: none\n` +
      `  - record:\n      set:\n        decided: ${x} $data.decision }\n`
    const uncaught = `${head}  - ask:\n${indent(call, 6)}`
    for (const [name, source] of [
      ["caught", caught],
      ["uncaught", uncaught]
    ]) {
      const saved = await server.send("POST", `${base}/definitions/workflow`, { name, source })
      expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    }
    const runs = []
    for (const name of ["caught", "uncaught"]) {
      const started = await server.send("POST", `${base}/definitions/workflow/${name}/run`, { input })
      expect([started.status, started.body.status]).toEqual([200, "started"])
      runs.push(started.body.run_id)
    }
    await waitFor(async () => {
      const open = (await server.send("GET", `${base}/interactions`)).body.interactions
      return open.length === 2 ? open : undefined
    })
    clock.shift("1 day")
    expect(await endedOnTheClock(base, runs[0])).toMatchObject({ status: "succeeded", output: { decided: "none" } })
    expect(await endedOnTheClock(base, runs[1])).toMatchObject({
      status: "rejected",
      rejection: { reason: "unanswered", kind: "expired" }
    })
    expect((await server.send("GET", `${base}/interactions`)).body.interactions).toEqual([])
  })

  it("runs started at once never hold more open requests than the cap", async () => {
    const base = await playbookWithAsk()
    const starts = await Promise.all(
      Array.from({ length: 8 }, () => server.send("POST", `${base}/definitions/interaction/ask/run`, { input }))
    )
    const started = starts.filter((start) => start.status === 200)
    const refused = starts.filter((start) => start.status !== 200)
    expect(started).toHaveLength(cap)
    for (const start of refused)
      expect([start.status, start.body.reason, start.body.kind]).toEqual([503, "unavailable", "requests_full"])
    expect((await server.send("GET", `${base}/interactions`)).body.interactions).toHaveLength(cap)
  })
})
