import { afterAll, beforeAll, expect, it } from "vitest"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** `${` as the documents write it; kept out of string literals so the linter reads them as plain text. */
const x = "$" + "{"

/** A workflow with all three triggers, answering what started it. */
const scheduled = `document:
  dsl: '1.0.3'
  namespace: test
  name: flow
  version: '1.0.0'
schedule:
  on:
    one:
      with: { type: com.example.invoice, data: '${x} $data.cents > 1000 }' }
  cron: 'CRON_TZ=Europe/Paris 0 7 * * 1-5'
  every: PT30M
do:
  - done:
      set:
        got: ${x} $input }
`

onEveryStore("a workflow's triggers over HTTP", (store) => {
  const clock = makeShiftedClock()
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store(), {}, clock.layer)
    const id = `triggers-${Math.random().toString(36).slice(2, 8)}`
    expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
    base = `/v1/orgs/local/playbooks/${id}`
  }, 60_000)
  afterAll(() => server.close())

  it("get_definition shows the triggers in document order and triggers_since; a matching event starts a run", async () => {
    expect(
      (await server.send("POST", `${base}/definitions/workflow`, { name: "invoices", source: scheduled })).status
    ).toBe(201)
    const got = await server.send("GET", `${base}/definitions/workflow/invoices`)
    expect(got.status).toBe(200)
    expect(got.body.triggers).toEqual([
      {
        kind: "event",
        reference: "/schedule/on",
        filters: [
          {
            reference: "/schedule/on/one",
            type: "com.example.invoice",
            attributes: { data: `${x} $data.cents > 1000 }` }
          }
        ]
      },
      { kind: "cron", reference: "/schedule/cron", expression: "0 7 * * 1-5", time_zone: "Europe/Paris" },
      { kind: "every", reference: "/schedule/every", milliseconds: 1_800_000 }
    ])
    const saved = await server.send("GET", `${base}/events?type=definition_created`)
    expect(got.body.triggers_since).toBe(saved.body.events[0].id)
    const listed = await server.send("GET", `${base}/definitions/workflow`)
    expect(listed.body.definitions[0].triggers).toEqual(got.body.triggers)
    expect(listed.body.definitions[0]).not.toHaveProperty("triggers_since")

    const published = await server.send("POST", `${base}/events`, {
      event: { source: "/erp", type: "com.example.invoice", data: { cents: 5000 } }
    })
    expect(published.status).toBeLessThan(300)
    let runs: any
    for (let attempt = 0; attempt < 500; attempt++) {
      runs = await server.send("GET", `${base}/runs?type=workflow`)
      if (runs.body.runs.some((run: any) => run.status === "succeeded")) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const [run] = runs.body.runs
    expect(run).toMatchObject({
      name: "invoices",
      status: "succeeded",
      started_by: { id: expect.stringMatching(/^playbook:/) }
    })
    const full = await server.send("GET", `/v1/orgs/local/playbooks/${base.split("/").pop()}/runs/${run.run_id}`)
    expect(full.body.output.got).toEqual([
      expect.objectContaining({ type: "com.example.invoice", data: { cents: 5000 } })
    ])
  })

  it("an every schedule starts one run at its due time, acting as the playbook, when the clock passes it", async () => {
    const source = scheduled.replace(/schedule:[\s\S]*?do:/, "schedule:\n  every: PT10M\ndo:")
    expect((await server.send("POST", `${base}/definitions/workflow`, { name: "ticks", source })).status).toBe(201)
    await new Promise((resolve) => setTimeout(resolve, 200))
    clock.shift("10 minutes")
    let runs: any
    for (let attempt = 0; attempt < 500; attempt++) {
      runs = await server.send("GET", `${base}/runs?type=workflow&name=ticks`)
      if (runs.body.runs.some((run: any) => run.status === "succeeded")) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const ticks = runs.body.runs.filter((run: any) => run.name === "ticks")
    expect(ticks).toHaveLength(1)
    const run = await server.send("GET", `${base}/runs/${ticks[0].run_id}`)
    const saved = await server.send("GET", `${base}/events?type=definition_created`)
    const created = saved.body.events.find((event: any) => event.metadata.definition.name === "ticks")
    expect(run.body.output.got.schedule.due).toBe(new Date(Date.parse(created.metadata.at) + 600_000).toISOString())
    const history = await server.send("GET", `${base}/runs/${ticks[0].run_id}/history`)
    expect(history.body.events[0].summary).toContain("was started by its every schedule")
    expect(history.body.events[0].metadata.trigger).toEqual({ kind: "every", reference: "/schedule/every" })
  })
})
