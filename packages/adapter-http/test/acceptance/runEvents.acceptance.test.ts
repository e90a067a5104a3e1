import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"

const x = "$" + "{"

/** A computation that hands its input back, with a description longer than the 300 characters a page shows. */
const echo = `---
description: ${"Hands its input back. ".repeat(20).trim()}
language: typescript
---
export default function (input: Json): Json {
  return input
}
`

/** A workflow that calls the echo function, then sets its output: a tree of two runs. */
const calling = `document:
  dsl: '1.0.3'
  namespace: events
  name: calling
  version: '1.0.0'
do:
  - first:
      call: run_definition
      with: { type: computation, name: echo, input: '${x} $input }' }
  - done:
      set:
        echoed: '${x} $data }'
`

/** The fields `metadata` always has (Event fields). */
const alwaysThere = ["stream", "position", "global_position", "correlation_id", "causation_id", "at", "by"]

/** The fields `metadata` may have besides, each only when the event has it. */
const sometimes = [
  "run_id",
  "definition",
  "called_by",
  "call_depth",
  "depth",
  "trigger",
  "acts_for",
  "trace_id",
  "span_id"
]

onEveryStore("run history, playbook events and paging over HTTP", (store) => {
  let server: AcceptanceServer
  let base: string
  let workflowRun: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
    base = await newPlaybook(server, "events")
    expect(
      (await server.send("POST", `${base}/definitions/computation`, { name: "echo", source: echo, diagram: "none" }))
        .status
    ).toBe(201)
    expect(
      (await server.send("POST", `${base}/definitions/workflow`, { name: "calling", source: calling })).status
    ).toBe(201)
    const started = await server.send("POST", `${base}/definitions/workflow/calling/run`, { input: { a: 1 } })
    workflowRun = started.body.run_id
    await waitFor(async () => {
      const read = await server.send("GET", `${base}/runs/${workflowRun}`)
      return read.body.status === "succeeded" ? read.body : undefined
    })
  }, 60_000)
  afterAll(() => server?.close())

  const events = async (query = "") => (await server.send("GET", `${base}/events?limit=100${query}`)).body.events

  it("gives every event exactly id, type, summary, data and metadata, with the metadata the seed lists", async () => {
    const all = await events()
    expect(all.length).toBeGreaterThan(5)
    for (const event of all) {
      expect(Object.keys(event).toSorted()).toEqual(["data", "id", "metadata", "summary", "type"])
      expect(typeof event.summary).toBe("string")
      expect(JSON.stringify(event.data).length).toBeLessThanOrEqual(4096)
      for (const field of alwaysThere) expect(Object.keys(event.metadata)).toContain(field)
      for (const field of Object.keys(event.metadata)) expect([...alwaysThere, ...sometimes]).toContain(field)
      expect(event.metadata.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
      expect(event.metadata.position).toBeGreaterThanOrEqual(1)
    }
    const created = all.findLast((event: any) => event.type === "definition_created")
    expect(created.metadata).toMatchObject({
      correlation_id: null,
      causation_id: null,
      by: "local",
      definition: { type: "computation", name: "echo", version: 1 }
    })
    expect(created.metadata.run_id).toBeUndefined()
  })

  it("links a workflow's events: start, inputs caused by the start, step events <input id>_<n>, the callee's run", async () => {
    const history = (await server.send("GET", `${base}/runs/${workflowRun}/history?order=asc&limit=100`)).body.events
    const [start, firstInput] = history
    expect(start.type).toBe("run_started")
    expect(start.metadata).toMatchObject({ causation_id: null, correlation_id: workflowRun, run_id: workflowRun })
    expect(firstInput.type).toBe("workflow_input_applied")
    expect(firstInput.metadata.causation_id).toBe(start.id)
    const steps = history.filter((event: any) => event.type.startsWith("step_"))
    expect(steps.length).toBeGreaterThan(0)
    for (const step of steps) expect(step.id).toMatch(/^[0-9a-f-]{36}_[1-9]\d*$/)
    const firstStep = steps.find((event: any) => event.id.endsWith("_1"))
    expect(firstStep.metadata.causation_id).toBe(firstStep.id.split("_")[0])
    expect(firstStep.data).toMatchObject({ name: expect.any(String), reference: expect.stringMatching(/^\/do\//) })
    const tree = await events(`&run_id=${workflowRun}&order=asc`)
    const callee = tree.find((event: any) => event.type === "run_started" && event.metadata.run_id !== workflowRun)
    expect(callee.metadata).toMatchObject({
      correlation_id: workflowRun,
      called_by: { run_id: workflowRun, reference: "/do/0/first" },
      call_depth: 1,
      definition: { type: "computation", name: "echo", version: 1 }
    })
    expect(history.map((event: any) => event.id)).toContain(callee.metadata.causation_id)
    expect(await events(`&run_id=${callee.metadata.run_id}`)).toEqual([])
    const listed = (await server.send("GET", `${base}/runs?steps=false`)).body.runs
    expect(listed.map((run: any) => run.run_id)).toEqual([workflowRun])
    const calleeRun = (await server.send("GET", `${base}/runs/${callee.metadata.run_id}`)).body
    expect(calleeRun.within).toEqual({ run_id: workflowRun, step: "do/0/first" })
  })

  it("pages a run's history in either order, a page ending between the step events of one input", async () => {
    const path = `${base}/runs/${workflowRun}/history`
    for (const order of ["asc", "desc"]) {
      const whole = (await server.send("GET", `${path}?order=${order}&limit=100`)).body
      expect(whole.has_more).toBe(false)
      expect(whole.events.length).toBeGreaterThan(4)
      for (const limit of [1, 2, 3]) {
        const seen: Array<string> = []
        let cursor: string | null = null
        do {
          const page: any = (
            await server.send(
              "GET",
              `${path}?order=${order}&limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`
            )
          ).body
          expect(page.events.length).toBeLessThanOrEqual(limit)
          seen.push(...page.events.map((event: any) => event.id))
          cursor = page.next_cursor
          expect(page.has_more).toBe(cursor !== null)
        } while (cursor !== null)
        expect([order, limit, seen]).toEqual([order, limit, whole.events.map((event: any) => event.id)])
      }
    }
    const first = (await server.send("GET", `${path}?limit=2`)).body
    expect(first.events.map((event: any) => event.type)).toEqual(["run_started", "workflow_input_applied"])
    const desc = (await server.send("GET", `${path}?order=desc&limit=1`)).body
    expect(desc.events.map((event: any) => event.type)).toEqual(["run_succeeded"])
    const ascCursor = (await server.send("GET", `${path}?limit=1`)).body.next_cursor
    const refused = await server.send("GET", `${path}?order=desc&cursor=${ascCursor}`)
    expect([refused.status, refused.body.errors[0].pointer]).toEqual([422, "/cursor"])
    const scope = `history:local/${base.split("/").at(-1)}/${workflowRun}/asc`
    const forged = (position: unknown) => Buffer.from(JSON.stringify({ s: scope, p: position })).toString("base64url")
    expect((await server.send("GET", `${path}?cursor=${forged({ at: 2, skip: 0 })}`)).status).toBe(200)
    for (const position of [1, { at: 0, skip: 0 }, { at: 2, skip: -1 }, { at: "2", skip: 0 }])
      expect((await server.send("GET", `${path}?cursor=${forged(position)}`)).status).toBe(422)
    expect((await server.send("GET", `${base}/runs/${crypto.randomUUID()}/history`)).status).toBe(404)
  })

  it("reads one event in full, a step event by its id, and refuses _0, _02 and ids it does not have", async () => {
    const history = (await server.send("GET", `${base}/runs/${workflowRun}/history?order=asc&limit=100`)).body.events
    const step = history.find((event: any) => event.type.startsWith("step_"))
    const read = await server.send("GET", `${base}/events/${step.id}`)
    expect([read.status, read.body.id, read.body.type, read.body.metadata]).toEqual([
      200,
      step.id,
      step.type,
      step.metadata
    ])
    const input = step.id.split("_")[0]
    for (const id of [`${input}_0`, `${input}_02`, "not-an-id"]) {
      const refused = await server.send("GET", `${base}/events/${id}`)
      expect([id, refused.status, refused.body.errors?.[0]?.pointer]).toEqual([id, 422, "/event_id"])
    }
    for (const id of [`${input}_99`, crypto.randomUUID()])
      expect((await server.send("GET", `${base}/events/${id}`)).status).toBe(404)
    const other = await newPlaybook(server, "events")
    expect((await server.send("GET", `${other}/events/${step.id}`)).status).toBe(404)
    expect((await server.send("GET", `${other}/events/${history[0].id}`)).status).toBe(404)
  })

  it("shows a value over 2 KiB as its size on pages, a definition's document and schemas as sizes, and all of it in full by id", async () => {
    const big = { text: "x".repeat(3_000) }
    const run = await server.send("POST", `${base}/definitions/computation/echo/run`, { input: big })
    const [started, succeeded] = (await server.send("GET", `${base}/runs/${run.body.run_id}/history`)).body.events
    expect(started.data.input).toBeUndefined()
    expect(started.data.input_bytes).toBe(JSON.stringify(big).length)
    expect(succeeded.data.output).toBeUndefined()
    expect(succeeded.data.output_bytes).toBe(JSON.stringify(big).length)
    expect((await server.send("GET", `${base}/events/${started.id}`)).body.data.input).toEqual(big)
    expect((await server.send("GET", `${base}/events/${succeeded.id}`)).body.data.output).toEqual(big)
    const [created] = await events("&type=definition_created&order=asc")
    expect(created.data.source).toBeUndefined()
    expect(created.data.source_bytes).toBe(Buffer.byteLength(echo, "utf8"))
    expect(created.data.description).toHaveLength(300)
    const full = await server.send("GET", `${base}/events/${created.id}`)
    expect([full.body.data.source, full.body.data.description.length]).toEqual([echo, 439])
  })

  it("shortens a rejection's detail to fit its data in 4 KiB, and reads it whole by id", async () => {
    const words = "The ledger cannot take this invoice now. ".repeat(150)
    const raising = `document:\n  dsl: '1.0.3'\n  namespace: events\n  name: raising\n  version: '1.0.0'\ndo:
  - stop:
      raise:
        error:
          type: https://example.com/errors/down
          status: 503
          title: Down
          detail: ${JSON.stringify(words)}
`
    expect(
      (await server.send("POST", `${base}/definitions/workflow`, { name: "raising", source: raising })).status
    ).toBe(201)
    const run = await server.send("POST", `${base}/definitions/workflow/raising/run`, {})
    expect(run.body.detail).toContain(words.trim())
    const history = (await server.send("GET", `${base}/runs/${run.body.run_id}/history?order=desc&limit=1`)).body
    const [rejected] = history.events
    expect(rejected.type).toBe("run_rejected")
    expect(rejected.data.reason).toBe("unavailable")
    expect(rejected.data.detail).toMatch(/^Down: The ledger cannot take this invoice now\. .*…$/)
    expect(JSON.stringify(rejected.data).length).toBeLessThanOrEqual(4096)
    expect(JSON.stringify(rejected.data).length).toBeGreaterThan(3500)
    expect((await server.send("GET", `${base}/events/${rejected.id}`)).body.data.detail).toBe(run.body.detail)
  })

  it("filters by type, since and order, and refuses a since the calendar or the clock does not have", async () => {
    const typed = await events("&type=run_succeeded")
    expect(typed.length).toBeGreaterThan(0)
    expect(typed.every((event: any) => event.type === "run_succeeded")).toBe(true)
    const ascending = await events("&order=asc")
    const descending = await events("")
    expect(ascending.map((event: any) => event.id)).toEqual(descending.map((event: any) => event.id).toReversed())
    const middle = ascending[Math.floor(ascending.length / 2)].metadata.at
    const since = await events(`&since=${encodeURIComponent(middle)}&order=asc`)
    expect(since.length).toBeGreaterThan(0)
    expect(since.every((event: any) => event.metadata.at >= middle)).toBe(true)
    expect(await events("&since=2999-01-01T00:00:00%2B02:00")).toEqual([])
    for (const bad of ["2026-10-05T24:00:00Z", "2026-02-30T10:00:00Z", "2026-10-05T10:00:00", "yesterday"]) {
      const refused = await server.send("GET", `${base}/events?since=${encodeURIComponent(bad)}`)
      expect([bad, refused.status, refused.body.errors?.[0]?.pointer]).toEqual([bad, 422, "/since"])
    }
  })

  it("pages with limit 1 to 100 (20 by default), has_more and next_cursor, and refuses foreign cursors", async () => {
    for (let index = 0; index < 12; index++)
      await server.send("POST", `${base}/definitions/computation/echo/run`, { input: { index } })
    const first = (await server.send("GET", `${base}/events`)).body
    expect([first.events.length, first.has_more, typeof first.next_cursor]).toEqual([20, true, "string"])
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const page: any = (
        await server.send("GET", `${base}/events?limit=7${cursor === null ? "" : `&cursor=${cursor}`}`)
      ).body
      expect(page.events.length).toBeLessThanOrEqual(7)
      seen.push(...page.events.map((event: any) => event.id))
      cursor = page.next_cursor
      if (cursor === null) expect(page.has_more).toBe(false)
    } while (cursor !== null)
    expect(seen).toEqual((await events("")).map((event: any) => event.id).concat(seen.slice(100)))
    expect(new Set(seen).size).toBe(seen.length)
    for (const limit of ["0", "101", "x"]) {
      const refused = await server.send("GET", `${base}/events?limit=${limit}`)
      expect([limit, refused.status, refused.body.errors?.[0]?.pointer]).toEqual([limit, 422, "/limit"])
    }
    const history = (await server.send("GET", `${base}/runs/${workflowRun}/history?limit=1`)).body
    const runs = (await server.send("GET", `${base}/runs?limit=1`)).body
    const other = await newPlaybook(server, "events")
    for (const [path, foreign] of [
      ["/events", history.next_cursor],
      ["/events", runs.next_cursor],
      [`/runs/${workflowRun}/history`, first.next_cursor],
      ["/runs", first.next_cursor],
      ["/events", "bm90IGEgY3Vyc29y"]
    ]) {
      const refused = await server.send("GET", `${base}${path}?cursor=${foreign}`)
      expect([path, refused.status, refused.body.errors?.[0]?.pointer]).toEqual([path, 422, "/cursor"])
    }
    const elsewhere = await server.send("GET", `${other}/events?cursor=${first.next_cursor}`)
    expect([elsewhere.status, elsewhere.body.errors?.[0]?.pointer]).toEqual([422, "/cursor"])
  })

  it("lists runs newest first, filtered by type, name and status, without output, record or rejection words", async () => {
    const raising = await server.send("POST", `${base}/definitions/computation`, {
      name: "raises",
      source: echo.replace("return input", 'throw new Error("no")'),
      diagram: "none"
    })
    expect(raising.status).toBe(201)
    const refused = await server.send("POST", `${base}/definitions/computation/raises/run`, { input: {} })
    expect(refused.status).toBe(409)
    const rejected = (await server.send("GET", `${base}/runs?status=rejected&type=computation`)).body.runs
    expect(rejected.map((run: any) => run.run_id)).toEqual([refused.body.run_id])
    expect(rejected[0].rejection).toEqual({ reason: "conflict", kind: "unworkable" })
    const workflows = (await server.send("GET", `${base}/runs?type=workflow&name=calling`)).body.runs
    expect(workflows.map((run: any) => run.run_id)).toEqual([workflowRun])
    const listed = (await server.send("GET", `${base}/runs?type=computation&name=echo&limit=100`)).body.runs
    expect(listed.length).toBeGreaterThan(1)
    expect(listed.every((run: any) => run.output === undefined && run.record === undefined)).toBe(true)
    const startedAt = listed.map((run: any) => run.started_at)
    expect(startedAt).toEqual(startedAt.toSorted().toReversed())
    expect((await server.send("GET", `${base}/runs?status=cancelling`)).status).toBe(422)
    expect((await server.send("GET", `${base}/runs?type=nothing`)).status).toBe(422)
  })
})
