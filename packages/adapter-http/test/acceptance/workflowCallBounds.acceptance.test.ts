import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"
import { asking, catchingCall, endedRun, saveAll, workflowNamed as workflow, x } from "./workflowDocuments.js"

/** Calls itself: each run one call deeper, until the call that would sit 9 deep. */
const deep = workflow("deep", "  - again:\n      call: run_definition\n      with: { type: workflow, name: deep }\n")

/** A callee workflow that calls the interaction and outputs the error its call raised. */
const child = catchingCall("interaction", "ask")

/** A root workflow holding two open calls at once: the interaction and the child workflow. */
const root = workflow(
  "root",
  `  - both:
      fork:
        branches:
          - ask:
              call: run_definition
              with: { type: interaction, name: ask }
          - delegate:
              call: run_definition
              with: { type: workflow, name: child }
`
)

/** A computation function answering `{ ok: true }`: a callee that ends within its call. */
const okay = `---
description: Says ok
language: typescript
---
export default function (input: Json): Json {
  return { ok: true }
}
`

/** A branch calling \`okay\` that outputs the status of the error its call raised, or the callee's output. */
const okayBranch = (name: string) => `          - ${name}:
              try:
                - call-it:
                    call: run_definition
                    with: { type: computation, name: okay }
              catch:
                as: failure
                do:
                  - report:
                      set:
                        status: ${x} $failure.status }
                        kind: ${x} $failure.kind }
`

/** A root workflow whose first step opens three calls at once, one more than the deployment allows. */
const crowded = workflow(
  "crowded",
  `  - three:
      fork:
        branches:
${okayBranch("first")}${okayBranch("second")}${okayBranch("third")}`
)

onEveryStore("the call bounds of a workflow tree over HTTP", (store) => {
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    // The deployment allows 2 open calls under one root run (workflow-format.md §7.3: 1–9,999).
    server = await startAcceptanceServer(store(), { maxOpenCalls: 2 })
    base = await newPlaybook(server, "bounds")
    await saveAll(server, base, "interaction", [["ask", asking]])
    await saveAll(server, base, "computation", [["okay", okay]])
    await saveAll(server, base, "workflow", [
      ["child", child],
      ["root", root],
      ["crowded", crowded]
    ])
  }, 60_000)
  afterAll(() => server?.close())

  const ended = (runId: string) => endedRun(server, base, runId)

  it("a call beyond the tree's open calls is refused conflict: the step raises ERR/runtime 409, in a callee too", async () => {
    const started = await server.send("POST", `${base}/definitions/workflow/root/run`, {})
    expect(started.body.status, JSON.stringify(started.body)).toBe("started")
    const request = await waitFor(async () => {
      const runs = await server.send("GET", `${base}/runs?type=interaction`)
      return runs.body.runs.find((run: any) => run.within?.run_id === started.body.run_id)
    }, 20_000)
    const callee = await waitFor(async () => {
      const runs = await server.send("GET", `${base}/runs?type=workflow`)
      const found = runs.body.runs.find(
        (run: any) => run.name === "child" && run.within?.run_id === started.body.run_id
      )
      return found?.status === "succeeded" ? found : undefined
    }, 20_000)
    expect((await server.send("GET", `${base}/runs/${callee.run_id}`)).body.output).toEqual({
      type: "https://serverlessworkflow.io/spec/1.0.0/errors/runtime",
      status: 409,
      title: "interaction ask was rejected: conflict",
      kind: "open_calls",
      because: null
    })
    const answered = await server.send("POST", `${base}/runs/${request.run_id}/answer`, { answer: { ok: true } })
    expect(answered.status, JSON.stringify(answered.body)).toBe(200)
    const run = await ended(started.body.run_id)
    expect(run, JSON.stringify(run)).toMatchObject({
      status: "succeeded",
      output: [{ ok: true }, { status: 409, kind: "open_calls" }]
    })
  }, 60_000)

  it("a root run's first step that opens more calls than the tree allows has the last ones refused", async () => {
    const started = await server.send("POST", `${base}/definitions/workflow/crowded/run`, {})
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const run = await ended(started.body.run_id)
    expect(run, JSON.stringify(run)).toMatchObject({
      status: "succeeded",
      output: [{ ok: true }, { ok: true }, { status: 409, kind: "open_calls" }]
    })
  }, 60_000)
})

onEveryStore("the call depth of a workflow tree over HTTP", (store) => {
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
    base = await newPlaybook(server, "depth")
    await saveAll(server, base, "workflow", [["deep", deep]])
  }, 60_000)
  afterAll(() => server?.close())

  it("a start that would sit a 9th call below the root is refused: the tree ends rejected from its deepest run", async () => {
    const started = await server.send("POST", `${base}/definitions/workflow/deep/run`, {})
    const run = await endedRun(server, base, started.body.run_id)
    expect(run, JSON.stringify(run)).toMatchObject({ status: "rejected", rejection: { reason: "invalid_input" } })
    const runs = await server.send("GET", `${base}/runs?type=workflow&limit=100`)
    const tree = runs.body.runs.filter((candidate: any) => candidate.name === "deep")
    expect(tree).toHaveLength(9)
    const details = await Promise.all(
      tree.map(async (candidate: any) => (await server.send("GET", `${base}/runs/${candidate.run_id}`)).body)
    )
    const deepest = details.filter((detail) => detail.rejection?.detail?.startsWith("Too many calls deep"))
    expect(deepest, JSON.stringify(details.map((detail) => detail.rejection))).toHaveLength(1)
  }, 60_000)
})
