import type { RuntimeSettings } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type ChatServer, serveChat } from "./chatServer.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** A question posted in a room whose replies are read back from the room's thread and mapped by a reply rule. */
const ask = `---
description: Ask the owner in the room about a refund
to: '{{ input.room }}'
from: '{{ input.owner }}'
expires: P1D
deliver:
  server: chat
  tool: send_message
  with: { room: '{{ to }}', body: '{{ message }}' }
  sent: { conversation: /room_id, id: /message_id }
replies:
  tool: list_thread
  with: { room: '{{ sent.conversation }}', after: '{{ since }}' }
  read:
    list: /items
    order: oldest_first
    each: { id: /id, sender: /author, text: /body, to: /parent_id }
reply:
  decision:
    from: word
    words: { grant: [yes, ok], deny: [no] }
  reason: rest
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
      reason: { type: string, maxLength: 20 }
---
Refund order {{ input.order }}?
`

/** One event as the routes answer it. */
interface Event {
  readonly id: string
  readonly type: string
  readonly data: Record<string, any>
  readonly metadata: Record<string, any>
}

onEveryStore("interaction requests answered by a reply read back", (store) => {
  const clock = makeShiftedClock()
  let server: AcceptanceServer
  let chat: ChatServer
  beforeAll(async () => {
    chat = await serveChat()
    const settings: Partial<RuntimeSettings> = {
      toolServers: [{ name: "chat", type: "mcp", url: `${chat.url}/mcp`, allowed: ["send_message", "list_thread"] }]
    }
    server = await startAcceptanceServer(store(), settings, clock.layer, { toolServers: ToolServersLive.layer({}) })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await chat?.close()
  })

  const playbook = async () => {
    const id = `r${crypto.randomUUID().slice(0, 8)}`
    expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
    return { id, base: `/v1/orgs/local/playbooks/${id}` }
  }
  const history = async (base: string, runId: string): Promise<ReadonlyArray<Event>> =>
    (await server.send("GET", `${base}/runs/${runId}/history?limit=100`)).body.events
  const playbookEvents = async (base: string, type: string): Promise<ReadonlyArray<Event>> =>
    (await server.send("GET", `${base}/events?type=${type}&order=asc`)).body.events
  const listed = async (base: string, runId: string) =>
    (await server.send("GET", `${base}/interactions`)).body.interactions.find(
      (request: { run_id: string }) => request.run_id === runId
    )
  /** Polls until `found` holds, moving the clock a read's delay on at every turn so the replies host reads again. */
  const until = async <A>(read: () => Promise<A | undefined>): Promise<A> => {
    for (let turn = 0; turn < 300; turn++) {
      const value = await read()
      if (value !== undefined) return value
      if (turn % 20 === 0) clock.shift("61 seconds")
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error("the replies host never read what the test waited for")
  }
  const delivered = (base: string, runId: string) =>
    until(async () => {
      const events = await history(base, runId)
      return events.find((event) => event.type === "delivery_succeeded")
    })

  it("takes the answerer's reply as the answer, refusing one that is no answer and ignoring anyone else", async () => {
    const { id, base } = await playbook()
    expect(
      (await server.send("POST", `${base}/definitions/interaction`, { name: "ask", source: ask, diagram: "none" }))
        .status
    ).toBe(201)
    const room = `room-${id}`
    const started = await server.send("POST", `${base}/definitions/interaction/ask/run`, {
      input: { room, owner: "dana", order: "A-17" }
    })
    expect([started.status, started.body.status]).toEqual([200, "started"])
    const runId = started.body.run_id
    const landed = await delivered(base, runId)
    expect(landed.data).toMatchObject({ delivered_as: { conversation: room }, replies_in: room })
    expect(await listed(base, runId)).toMatchObject({ conversation: room, answerer: "dana", reply_refusals: 0 })
    chat.replies.push(
      { room, id: "x1", author: "eve", body: "yes" },
      { room, id: "x2", author: "dana", body: "maybe later, I am busy" },
      { room, id: "x3", author: "dana", body: "Yes! customer right" }
    )
    const events = await until(async () => {
      const found = await history(base, runId)
      return found.some((event) => event.type === "run_succeeded") ? found : undefined
    })
    expect(events.map((event) => event.type).slice(-3)).toEqual(["reply_refused", "request_answered", "run_succeeded"])
    const refused = events.find((event) => event.type === "reply_refused")!
    expect(refused.data).toMatchObject({
      reply: { id: "x2", sender: "dana", conversation: room },
      because: "not_an_answer"
    })
    expect(JSON.stringify(refused.data)).not.toContain("busy")
    const answered = events.find((event) => event.type === "request_answered")!
    expect(answered.data).toEqual({
      answer: { decision: "grant", reason: "customer right" },
      answered_by: { id: `playbook:${id}`, name: id },
      reply: { id: "x3", sender: "dana", conversation: room }
    })
    expect(events.at(-1)!.data.output).toEqual({ decision: "grant", reason: "customer right" })
    // The read's own fact is recorded after the answers it lists, so it may land just after run_succeeded.
    const reads = await until(async () => {
      const found = await playbookEvents(base, "replies_read")
      return found.length > 0 ? found : undefined
    })
    expect(reads).toHaveLength(1)
    expect(reads[0]!.data).toMatchObject({
      conversation: room,
      server: "chat",
      tool: "list_thread",
      replies: 3,
      answered: [runId],
      refused: 1,
      cursor: "x3"
    })
    expect(reads[0]!.metadata.stream).toMatch(new RegExp(`^playbook/local/${id}/conversation-calls/[0-9a-f]{64}$`))
    const listing = chat.calls.find((call) => call.tool === "list_thread" && call.arguments.room === room)
    expect(listing?.arguments).toEqual({ room, after: "" })
    expect(await listed(base, runId)).toBeUndefined()
  })

  it("refuses a reply two requests could take as ambiguous, takes one that names its message, and reads on after the cursor", async () => {
    const { base } = await playbook()
    expect(
      (await server.send("POST", `${base}/definitions/interaction`, { name: "ask", source: ask, diagram: "none" }))
        .status
    ).toBe(201)
    const room = `room-${crypto.randomUUID().slice(0, 8)}`
    const runs: Array<string> = []
    for (const order of ["B-1", "B-2"]) {
      const started = await server.send("POST", `${base}/definitions/interaction/ask/run`, {
        input: { room, owner: "dana", order }
      })
      runs.push(started.body.run_id)
    }
    const second = await delivered(base, runs[1]!)
    await delivered(base, runs[0]!)
    chat.replies.push({ room, id: "y1", author: "dana", body: "no" })
    await until(async () => ((await listed(base, runs[1]!))?.reply_refusals === 1 ? true : undefined))
    expect((await listed(base, runs[0]!))?.reply_refusals).toBe(1)
    const refusal = (await history(base, runs[0]!)).find((event) => event.type === "reply_refused")!
    expect(refusal.data).toMatchObject({ because: "ambiguous", reply: { id: "y1" } })
    chat.replies.push({ room, id: "y2", author: "dana", body: "no thanks", parent_id: second.data.delivered_as.id })
    const ended = await until(async () => {
      const found = await history(base, runs[1]!)
      return found.find((event) => event.type === "run_succeeded")
    })
    expect(ended.data.output).toEqual({ decision: "deny", reason: "thanks" })
    expect((await listed(base, runs[0]!))?.standing).toBe("delivered")
    const reads = chat.calls.filter((call) => call.tool === "list_thread" && call.arguments.room === room)
    expect(reads.map((call) => call.arguments.after)).toContain("y1")
  })

  it("tells the answerer why each reply was refused through the delivery's tool, at most 3 times a request", async () => {
    const { base } = await playbook()
    const telling = ask.replace(
      "reply:",
      "  tell:\n    with: { room: '{{ sent.conversation }}', body: 'To {{ to }}: {{ message }}' }\nreply:"
    )
    const saved = await server.send("POST", `${base}/definitions/interaction`, {
      name: "ask",
      source: telling,
      diagram: "none"
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const room = `room-${crypto.randomUUID().slice(0, 8)}`
    const started = await server.send("POST", `${base}/definitions/interaction/ask/run`, {
      input: { room, owner: "dana", order: "T-1" }
    })
    const runId = started.body.run_id
    await delivered(base, runId)
    chat.replies.push(
      ...["maybe", "perhaps", "later", "soon"].map((body, index) => ({ room, id: `t${index}`, author: "dana", body }))
    )
    const told = await until(async () => {
      const found = await playbookEvents(base, "telling_succeeded")
      return found.length === 3 ? found : undefined
    })
    expect((await listed(base, runId))?.reply_refusals).toBe(4)
    const startedTellings = await playbookEvents(base, "telling_started")
    expect(startedTellings.map((event) => [event.data.number, event.data.reply.id])).toEqual([
      [1, "t0"],
      [2, "t1"],
      [3, "t2"]
    ])
    expect(startedTellings[0]!.data).toMatchObject({ run_id: runId, server: "chat", tool: "send_message" })
    expect(startedTellings[0]!.metadata.stream).toMatch(/\/conversation-calls\/[0-9a-f]{64}$/)
    expect(told.map((event) => event.data.run_id)).toEqual([runId, runId, runId])
    const sent = chat.calls.filter(
      (call) =>
        call.tool === "send_message" && call.arguments.room === room && String(call.arguments.body).startsWith("To ")
    )
    expect(sent).toHaveLength(3)
    expect(sent[0]!.arguments.body).toMatch(
      /^To [^:]+: Your reply was not taken as the answer\. The reply's first word names none of the values of decision: deny, grant\. Reply again before \d{4}-\d\d-\d\dT/
    )
    chat.replies.push({ room, id: "t9", author: "dana", body: "yes" })
    const ended = await until(async () => (await history(base, runId)).find((event) => event.type === "run_succeeded"))
    expect(ended.data.output).toEqual({ decision: "grant" })
    expect(await playbookEvents(base, "telling_started")).toHaveLength(3)
  })

  it("records a telling refused before sending, through a tool the playbook may not use, and calls nothing", async () => {
    const { base } = await playbook()
    const saved = await server.send("POST", `${base}/definitions/interaction`, {
      name: "ask",
      source: ask.replace("reply:", "  tell: { tool: delete_room }\nreply:"),
      diagram: "none"
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const room = `room-${crypto.randomUUID().slice(0, 8)}`
    const runId = (
      await server.send("POST", `${base}/definitions/interaction/ask/run`, {
        input: { room, owner: "dana", order: "T-2" }
      })
    ).body.run_id
    await delivered(base, runId)
    chat.replies.push({ room, id: "u1", author: "dana", body: "hmm" })
    const failed = await until(async () => (await playbookEvents(base, "telling_failed"))[0])
    expect(failed.data).toEqual({
      run_id: runId,
      number: 1,
      because: "tool_not_offered",
      detail: "The tool chat/delete_room is not offered to the playbook now."
    })
    const [started] = await playbookEvents(base, "telling_started")
    expect(started!.data).toMatchObject({ run_id: runId, number: 1, tool: "delete_room", reply: { id: "u1" } })
    expect(chat.calls.some((call) => call.tool === "delete_room")).toBe(false)
  })

  it("records a read that failed on the conversation's stream, and reads again", async () => {
    const { base } = await playbook()
    expect(
      (await server.send("POST", `${base}/definitions/interaction`, { name: "ask", source: ask, diagram: "none" }))
        .status
    ).toBe(201)
    const room = `room-${crypto.randomUUID().slice(0, 8)}`
    const started = await server.send("POST", `${base}/definitions/interaction/ask/run`, {
      input: { room, owner: "dana", order: "C-1" }
    })
    await delivered(base, started.body.run_id)
    chat.mode = "failing"
    const failure = await until(async () =>
      (await playbookEvents(base, "reading_failed")).find((event) => event.data.conversation === room)
    )
    chat.mode = "serving"
    expect(failure.data).toMatchObject({ server: "chat", tool: "list_thread", because: "server_failure" })
    chat.replies.push({ room, id: "z1", author: "dana", body: "ok" })
    const ended = await until(async () =>
      (await history(base, started.body.run_id)).find((event) => event.type === "run_succeeded")
    )
    expect(ended.data.output).toEqual({ decision: "grant" })
  })
})
