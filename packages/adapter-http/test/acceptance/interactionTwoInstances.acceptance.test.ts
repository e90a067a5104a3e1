import { postgresSuite } from "@runledger/store-postgres/testing"
import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { askTo as ask } from "./readSideDocuments.js"
import { type AcceptanceServer, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"

const x = "$" + "{"

/** A workflow whose first step asks (the interaction `ask`) and whose next one records what was decided. */
const flow = `document:
  dsl: '1.0.3'
  namespace: test
  name: flow
  version: '1.0.0'
do:
  - ask:
      call: run_definition
      with:
        type: interaction
        name: ask
        input: ${x} $data }
  - record:
      set:
        decided: ${x} $data.decision }
`

postgresSuite("interaction requests across two instances over HTTP", "alongside", (database) => {
  let a: AcceptanceServer
  let b: AcceptanceServer
  beforeAll(async () => {
    const store = { kind: "postgres", url: database.url, schema: database.schema } as const
    a = await startAcceptanceServer(store)
    b = await startAcceptanceServer(store)
  }, 60_000)
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  /** Reads a run on a server until it is no longer started. */
  const ended = (server: AcceptanceServer, base: string, runId: string) =>
    waitFor(
      async () => {
        const run = (await server.send("GET", `${base}/runs/${runId}`)).body
        return run.status === "started" ? undefined : run
      },
      10_000,
      2
    )

  it("a workflow waits on a request on instance A; the answer posted to B ends the workflow on A", async () => {
    const base = await newPlaybook(a, "two")
    const saved = [
      await a.send("POST", `${base}/definitions/interaction`, { name: "ask", source: ask, diagram: "none" }),
      await a.send("POST", `${base}/definitions/workflow`, { name: "flow", source: flow })
    ]
    expect(saved.map((answer) => answer.status)).toEqual([201, 201])
    const started = await a.send("POST", `${base}/definitions/workflow/flow/run`, {
      input: { to: "dana", order: "A-17" }
    })
    expect([started.status, started.body.status]).toEqual([200, "started"])
    const request = await waitFor(async () => {
      const listed = (await b.send("GET", `${base}/interactions`)).body.interactions
      return (
        listed.find((candidate: { within?: { run_id: string } }) => candidate.within?.run_id === started.body.run_id) ??
        listed[0]
      )
    })
    expect(request).toMatchObject({ function: "ask", to: "dana", standing: "held_for_an_agent" })
    const answered = await b.send("POST", `${base}/runs/${request.run_id}/answer`, { answer: { decision: "grant" } })
    expect(answered.status).toBe(200)
    const answeredAt = performance.now()
    const run = await ended(a, base, started.body.run_id)
    console.log(`answer on B → workflow ended, read on A: ${(performance.now() - answeredAt).toFixed(1)} ms`)
    expect(run).toMatchObject({ status: "succeeded", output: { decided: "grant" } })
    expect(await ended(a, base, request.run_id)).toMatchObject({ status: "succeeded", output: { decision: "grant" } })
    expect((await a.send("GET", `${base}/interactions`)).body.interactions).toEqual([])
  })

  it("a request asked on A and answered on B succeeds on A; the same answer on A is the fact B recorded", async () => {
    const base = await newPlaybook(a, "two")
    expect(
      (await a.send("POST", `${base}/definitions/interaction`, { name: "ask", source: ask, diagram: "none" })).status
    ).toBe(201)
    const started = await a.send("POST", `${base}/definitions/interaction/ask/run`, {
      input: { to: "eli", order: "B-2" }
    })
    const runId = started.body.run_id
    const answered = await b.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "deny" } })
    expect(answered.status).toBe(200)
    expect(await ended(a, base, runId)).toMatchObject({ status: "succeeded", output: { decision: "deny" } })
    const again = await a.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "deny" } })
    expect([again.status, again.body]).toEqual([200, answered.body])
    const other = await a.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "grant" } })
    expect(other.status).toBe(409)
  })
})
