import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { endedRun, saveAll } from "./workflowDocuments.js"

/** A workflow that listens for an event nobody sends: it goes on until something ends it. */
const waiting = `document:
  dsl: '1.0.3'
  namespace: test
  name: waiting
  version: '1.0.0'
do:
  - hear:
      listen:
        to:
          one:
            with: { type: com.example.never }
`

/** The shortest longest run a deployment may set (workflow-format.md §15): 2 hours. */
const twoHours = 2 * 3_600_000

onEveryStore("the longest run a deployment sets over HTTP", (store) => {
  const clock = makeShiftedClock()
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store(), { maxRunMilliseconds: twoHours }, clock.layer)
    base = await newPlaybook(server, "duration")
    await saveAll(server, base, "workflow", [["waiting", waiting]])
  }, 60_000)
  afterAll(() => server?.close())

  it("a run still going at the deployment's longest run is cancelled with kind overrun", async () => {
    const started = await server.send("POST", `${base}/definitions/workflow/waiting/run`, {})
    expect(started.body.status, JSON.stringify(started.body)).toBe("started")
    clock.shift(twoHours - 60_000)
    const early = await server.send("GET", `${base}/runs/${started.body.run_id}`)
    expect(early.body.status).toBe("started")
    clock.shift(61_000)
    const ended = await endedRun(server, base, started.body.run_id)
    expect(ended, JSON.stringify(ended)).toMatchObject({
      status: "rejected",
      rejection: { reason: "cancelled", kind: "overrun" }
    })
  }, 60_000)

  it("a document whose written duration is longer than the deployment's longest run is refused at save", async () => {
    const source = waiting.replace("name: waiting", "name: long").concat("      timeout:\n        after: PT3H\n")
    const saved = await server.send("POST", `${base}/definitions/workflow`, { name: "long", source })
    expect(saved.status, JSON.stringify(saved.body)).toBe(422)
    expect(saved.body.errors[0]).toMatchObject({ pointer: "/source" })
    expect(saved.body.errors[0].detail).toContain("longer than the longest run")
  })
})
