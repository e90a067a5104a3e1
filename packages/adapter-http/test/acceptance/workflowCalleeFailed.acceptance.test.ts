import { randomUUID } from "node:crypto"
import { FormatsLive, QuickJsSandbox, Sandbox, SandboxBroke } from "@runledger/core"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { catchingCall, endedRun, saveAll, startCatching } from "./workflowDocuments.js"

/** What the broken sandbox says of itself, as a worker that exited would. */
const brokenWords = "the worker exited with code 1"

/** The mark of the one program whose runs break the sandbox. */
const breakingMark = "// breaks the sandbox"

/**
 * The QuickJS sandbox, whose runs of the program marked `breakingMark` break it as a crashed worker does
 * (`SandboxBroke`). No program can make the real sandbox break (its workers survive every program; decision 0413),
 * so this is the one fault the test puts in; checks at save and every other run are the real sandbox's.
 */
const breakingSandbox = Layer.effect(
  Sandbox,
  Effect.map(Sandbox, (real) =>
    Sandbox.of({
      ...real,
      run: (run) =>
        run.source.includes(breakingMark) ? Effect.fail(new SandboxBroke({ detail: brokenWords })) : real.run(run)
    })
  )
).pipe(Layer.provide(QuickJsSandbox.layer()))

/** A computation function whose runs the breaking sandbox breaks. */
const breaking = `---
description: Doubles n, on a sandbox that breaks
language: typescript
input:
  schema: { type: object, properties: { n: { type: number } } }
---
${breakingMark}
export default function (input: Input): Output {
  return { n: (input.n ?? 0) * 2 }
}
`

onEveryStore("a workflow's callee that failed inside the runtime, over HTTP", (store) => {
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store(), {}, undefined, {
      formats: FormatsLive.pipe(Layer.provide(breakingSandbox))
    })
    base = await newPlaybook(server, "wf-failed")
    await saveAll(server, base, "computation", [["breaking", breaking]])
    await saveAll(server, base, "workflow", [["calls-breaking", catchingCall("computation", "breaking")]])
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  it("failed → ERR/runtime 500: the callee run failed, its incident named, the caller's catch takes it", async () => {
    const { runId, calleeId } = await startCatching(server, base, "calls-breaking")
    expect(await endedRun(server, base, runId)).toMatchObject({
      status: "succeeded",
      output: {
        type: "https://serverlessworkflow.io/spec/1.0.0/errors/runtime",
        status: 500,
        title: "computation breaking failed",
        kind: null,
        because: null
      }
    })
    const callee = await server.send("GET", `${base}/runs/${calleeId}`)
    expect(callee.status).toBe(200)
    expect(callee.body).toMatchObject({ status: "failed" })
    expect(JSON.stringify(callee.body)).toContain(brokenWords)
  })

  it("a run of the function alone answers 500 internal, its instance the incident its run_failed records", async () => {
    const runId = randomUUID()
    const ran = await server.send("POST", `${base}/definitions/computation/breaking/run`, {
      run_id: runId,
      input: { n: 2 }
    })
    expect(ran.status).toBe(500)
    expect(ran.body).toMatchObject({
      type: "https://on.auto/problems/internal",
      reason: "internal",
      run_id: runId,
      instance: expect.stringMatching(/^urn:runledger:incident:[0-9a-f-]{36}$/)
    })
    expect(ran.body.detail).toContain(brokenWords)
    expect(ran.body).not.toHaveProperty("incident")
    const read = await server.send("GET", `${base}/runs/${runId}`)
    expect(read.body).toMatchObject({ status: "failed", rejection: { reason: "internal" } })
    const events = await server.send("GET", `${base}/events?limit=100&run_id=${runId}`)
    const failed = events.body.events.find((event: { type: string }) => event.type === "run_failed")
    expect(failed?.data?.incident).toBe(ran.body.instance.slice("urn:runledger:incident:".length))
  })
})
