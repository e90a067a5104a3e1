import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { randomEvent } from "./eventAttributes.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

onEveryStore("publish_event and send_run_event given random attribute maps", (store) => {
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
    const id = `fuzz-${Math.random().toString(36).slice(2, 8)}`
    expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
    base = `/v1/orgs/local/playbooks/${id}`
  }, 60_000)
  afterAll(() => server?.close())

  it("answers 200, 409 or 422 with pointers into the event, never a defect, and a refusal records nothing", async () => {
    await fc.assert(
      fc.asyncProperty(randomEvent, async (event) => {
        const before = await server.factCount()
        const answer = await server.send("POST", `${base}/events`, { event })
        expect([200, 409, 422], JSON.stringify([event, answer.body])).toContain(answer.status)
        if (answer.status === 200) return
        expect(await server.factCount()).toBe(before)
        if (answer.status === 422) {
          expect(answer.body.reason).toBe("invalid_input")
          expect(answer.body.errors.length).toBeGreaterThan(0)
          for (const error of answer.body.errors) expect(error.pointer).toMatch(/^\/event(\/|$)/)
        }
      }),
      { numRuns: 150 }
    )
  }, 120_000)

  it("refuses any event sent to a run it does not know with invalid_input or not_found, recording nothing", async () => {
    await fc.assert(
      fc.asyncProperty(randomEvent, async (event) => {
        const before = await server.factCount()
        const answer = await server.send("POST", `${base}/runs/0190a1b2-0000-7000-8000-000000000000/events`, {
          event
        })
        expect([404, 422], JSON.stringify([event, answer.body])).toContain(answer.status)
        expect(await server.factCount()).toBe(before)
      }),
      { numRuns: 100 }
    )
  }, 120_000)
})
