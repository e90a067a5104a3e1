import type { RuntimeSettings } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type ChatServer, serveChat } from "./chatServer.js"
import { newPlaybook } from "./newPlaybook.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"
import { asking, catchingCall, endedRun, saveAll, startCatching } from "./workflowDocuments.js"

/** A notification to a chat room through the chat server's tool: it takes no answer, so its delivery ends it. */
const notify = `---
description: Tell the room an order shipped
to: refunds
expires: P1D
deliver: { server: chat, tool: send_message }
---
Order shipped.
`

/** Calls the interaction `name`, catching `PROB/unanswered` (W6: a catch without a filter does not catch it). */
const catching = (name: string) =>
  catchingCall("interaction", name, {
    filter: "        errors:\n          with: { type: https://on.auto/problems/unanswered }\n"
  })

onEveryStore("a workflow's callees that end rejected unanswered, over HTTP", (store) => {
  const clock = makeShiftedClock()
  let server: AcceptanceServer
  let chat: ChatServer
  let base: string
  beforeAll(async () => {
    chat = await serveChat()
    const settings: Partial<RuntimeSettings> = {
      toolServers: [{ name: "chat", type: "mcp", url: `${chat.url}/mcp`, allowed: ["send_message"] }]
    }
    server = await startAcceptanceServer(store(), settings, clock.layer, { toolServers: ToolServersLive.layer({}) })
    base = await newPlaybook(server, "wf-endings")
    await saveAll(server, base, "interaction", [
      ["ask", asking],
      ["notify", notify]
    ])
    await saveAll(server, base, "workflow", [
      ["calls-ask", catching("ask")],
      ["calls-notify", catching("notify")]
    ])
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await chat?.close()
  })

  const startWorkflow = (name: string) => startCatching(server, base, name)

  it("rejected unanswered (expired) → PROB/unanswered 410, the callee's kind copied", async () => {
    chat.mode = "serving"
    const { runId, calleeId } = await startWorkflow("calls-ask")
    await waitFor(async () => {
      const open = await server.send("GET", `${base}/interactions`)
      return open.body.interactions.find((request: { run_id: string }) => request.run_id === calleeId)
    })
    // Past the request's hour, well within the call's wait (its expiry plus a minute).
    clock.shift("3601 seconds")
    let reads = 0
    const callee = await waitFor(
      async () => {
        const read = await server.send("GET", `${base}/runs/${calleeId}`)
        // A host that read the clock just before the shift sleeps until its next sweep: move one sweep on, once.
        if (++reads === 50) clock.shift("30 seconds")
        return read.body.status === "started" ? undefined : read.body
      },
      20_000,
      20
    )
    expect(callee).toMatchObject({ status: "rejected", rejection: { reason: "unanswered", kind: "expired" } })
    expect(await endedRun(server, base, runId)).toMatchObject({
      status: "succeeded",
      output: {
        type: "https://on.auto/problems/unanswered",
        status: 410,
        title: "interaction ask was rejected: unanswered",
        kind: "expired",
        because: null
      }
    })
  })

  it("rejected unanswered (undelivered) → PROB/unanswered 410: a notification whose tool refused its arguments", async () => {
    chat.mode = "refusing"
    const { runId, calleeId } = await startWorkflow("calls-notify")
    const run = await endedRun(server, base, runId).finally(() => {
      chat.mode = "serving"
    })
    expect(run).toMatchObject({
      status: "succeeded",
      output: {
        type: "https://on.auto/problems/unanswered",
        status: 410,
        title: "interaction notify was rejected: unanswered",
        kind: "undelivered",
        because: null
      }
    })
    const callee = await server.send("GET", `${base}/runs/${calleeId}`)
    expect(callee.body).toMatchObject({ status: "rejected", rejection: { reason: "unanswered", kind: "undelivered" } })
    expect(callee.body.rejection.detail).toContain("room must name a room")
  })
})
