import type { RuntimeSettings } from "@runledger/core"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { ToolServersLive } from "@runledger/tool-servers"
import { Duration } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type ChatServer, serveChat } from "./chatServer.js"
import { newPlaybook } from "./newPlaybook.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, type AcceptanceStore, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** A question sent to a chat room through the chat server's tool, with typed arguments and the `sent` pointers. */
const ask = `---
description: Ask the owner in the team chat about a refund
to: '{{ input.room }}'
from: '{{ input.owner }}'
expires: P1D
deliver:
  server: chat
  tool: send_message
  with:
    room: '{{ to }}'
    body: "{{ message }}\\n{{ how_to_answer }}"
    run: '{{ run_id }}'
    function: '{{ function }}'
    schema: '{{ answer_schema }}'
    expires: '{{ expires_at }}'
    priority: 2
  sent:
    conversation: /room_id
    id: /message_id
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Refund {{ input.cents | divided_by: 100.0 | money }} for order {{ input.order }}?
`

/** A notification through the same tool, with the default arguments. */
const notify = `---
description: Tell the room an order shipped
to: '{{ input.room }}'
expires: P1D
deliver: { server: chat, tool: send_message }
---
Order {{ input.order }} shipped.
`

const input = { room: "refunds", owner: "dana", cents: 123450, order: "A-17" }

/** One event of a run's history, as the route answers it. */
interface Event {
  readonly id: string
  readonly type: string
  readonly summary: string
  readonly data: Record<string, any>
  readonly metadata: { readonly at: string; readonly causation_id: string | null; readonly by: string }
}

/** The settings of a runtime whose tool servers are the chat server, and a server that serves nobody's playbook. */
const settingsOf = (chat: ChatServer): Partial<RuntimeSettings> => ({
  toolServers: [
    { name: "chat", type: "mcp", url: `${chat.url}/mcp`, allowed: ["send_message"] },
    { name: "elsewhere", type: "mcp", url: `${chat.url}/mcp`, playbooks: ["nobody"] }
  ]
})

/** A shifted clock that also tells the time it reads: real time plus every move the test made. */
const makeClock = () => {
  const clock = makeShiftedClock()
  let offset = 0
  return {
    layer: clock.layer,
    now: () => Date.now() + offset,
    shift: (duration: Duration.DurationInput) => {
      offset += Duration.toMillis(duration)
      clock.shift(duration)
    }
  }
}

type Clock = ReturnType<typeof makeClock>

/** A runtime on a store with the chat server as its tool server, on a clock the test moves. */
const startServer = (store: AcceptanceStore, chat: ChatServer, clock: Clock) =>
  startAcceptanceServer(store, settingsOf(chat), clock.layer, { toolServers: ToolServersLive.layer({}) })

/** The calls a test makes against one runtime: a playbook of its own, saves, runs, histories and lists. */
const clientOf = (server: () => AcceptanceServer, clock: Clock) => {
  const playbook = () => newPlaybook(server(), "d")
  const save = (base: string, name: string, source: string) =>
    server().send("POST", `${base}/definitions/interaction`, { name, source, diagram: "none" })
  const run = (base: string, name: string, body: Record<string, unknown> = { input }) =>
    server().send("POST", `${base}/definitions/interaction/${name}/run`, body)
  const history = async (base: string, runId: string): Promise<ReadonlyArray<Event>> =>
    (await server().send("GET", `${base}/runs/${runId}/history?limit=100`)).body.events
  const listed = async (base: string, runId: string) =>
    (await server().send("GET", `${base}/interactions`)).body.interactions.find(
      (request: { run_id: string }) => request.run_id === runId
    )
  /**
   * Reads a run's history until it holds `count` facts of `type`. With `advance`, it moves the clock to the time
   * the delivery is next due when it waits for it: a failed attempt's `next_attempt_at`, or, with `orphaned`, an
   * open attempt's `lost_at` (an attempt whose instance is gone); a host that went to sleep just before a move is
   * woken by moving a sweep's time after 50 reads without progress. Fails after 400 reads.
   */
  const historyWith = async (
    base: string,
    runId: string,
    type: string,
    count = 1,
    options: { readonly advance?: boolean; readonly orphaned?: boolean } = {}
  ) => {
    let stalled = 0
    for (let read = 0; read < 400; read++) {
      const events = await history(base, runId)
      if (events.filter((event) => event.type === type).length >= count) return events
      const last = events.at(-1)
      const due =
        last?.type === "delivery_failed"
          ? last.data.next_attempt_at
          : last?.type === "delivery_started" && options.orphaned
            ? last.data.lost_at
            : undefined
      if (options.advance && due !== undefined) {
        const ahead = Date.parse(due) - clock.now()
        if (ahead >= 0) {
          clock.shift(ahead + 1)
          stalled = 0
        } else if (++stalled >= 50) {
          clock.shift("30 seconds")
          stalled = 0
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`the run ${runId} recorded no ${count} ${type} facts`)
  }
  return { playbook, save, run, history, listed, historyWith }
}

const ofType = (events: ReadonlyArray<Event>, type: string) => events.filter((event) => event.type === type)

onEveryStore("interaction requests delivered through a tool server", (store) => {
  const clock = makeClock()
  let server: AcceptanceServer
  let chat: ChatServer
  const client = clientOf(() => server, clock)
  beforeAll(async () => {
    chat = await serveChat()
    server = await startServer(store(), chat, clock)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await chat?.close()
  })

  it("sends a question through its tool with the arguments as written, records the attempt, and lists it delivered", async () => {
    chat.mode = "serving"
    const base = await client.playbook()
    expect((await client.save(base, "ask", ask)).status).toBe(201)
    const started = await client.run(base, "ask")
    expect([started.status, started.body.status]).toEqual([200, "started"])
    const runId = started.body.run_id
    const events = await client.historyWith(base, runId, "delivery_succeeded")
    expect(events.map((event) => event.type)).toEqual([
      "run_started",
      "interaction_requested",
      "run_deferred",
      "delivery_started",
      "delivery_succeeded"
    ])
    const expiresAt = events[1]!.data.expires_at
    expect(events[1]!.data).toMatchObject({
      delivery: { server: "chat", tool: "send_message" },
      to: "refunds",
      answerer: "dana",
      takes_answer: true
    })
    const sent = chat.calls.filter((call) => call.arguments.run === runId)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.tool).toBe("send_message")
    expect(sent[0]!.meta).toEqual({ "io.runledger/run_id": runId })
    expect(sent[0]!.arguments).toMatchObject({
      room: "refunds",
      function: "ask",
      expires: expiresAt,
      priority: 2,
      schema: { type: "object", required: ["decision"] }
    })
    expect(sent[0]!.arguments.body).toContain("Refund $1,234.50 for order A-17?")
    expect(sent[0]!.arguments.body).toContain(`${base}/runs/${runId}/answer`)
    expect(events[3]!.data).toMatchObject({
      number: 1,
      server: "chat",
      tool: "send_message",
      arguments_bytes: expect.any(Number),
      arguments_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      content_kept: true
    })
    expect(Date.parse(events[3]!.data.lost_at) - Date.parse(events[3]!.metadata.at)).toBe(60_000)
    expect(events[3]!.metadata.causation_id).toBe(events[1]!.id)
    expect(events[4]!.metadata.causation_id).toBe(events[3]!.id)
    expect(events[4]!.data).toMatchObject({
      number: 1,
      content_kept: true,
      result_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      delivered_as: { conversation: "refunds", id: `m-${chat.calls.length}` }
    })
    expect(await client.listed(base, runId)).toMatchObject({
      delivery: { server: "chat", tool: "send_message" },
      attempts: 1,
      answerer: "dana",
      takes_answer: true,
      standing: "delivered"
    })
    const answered = await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "deny" } })
    expect(answered.status).toBe(200)
    const ended = await client.historyWith(base, runId, "run_succeeded")
    expect(ofType(ended, "run_succeeded")[0]!.data.output).toEqual({ decision: "deny" })
  })

  it("succeeds a notification with output {} once delivered, with the default arguments", async () => {
    chat.mode = "serving"
    const base = await client.playbook()
    expect((await client.save(base, "notify", notify)).status).toBe(201)
    const runId = (await client.run(base, "notify")).body.run_id
    const events = await client.historyWith(base, runId, "run_succeeded")
    expect(events.map((event) => event.type).slice(3)).toEqual([
      "delivery_started",
      "delivery_succeeded",
      "run_succeeded"
    ])
    expect(ofType(events, "run_succeeded")[0]!.data.output).toEqual({})
    const sent = chat.calls.find((call) => call.arguments.run_id === runId)!
    expect(sent.arguments).toEqual({
      to: "refunds",
      message: "Order A-17 shipped.\n",
      run_id: runId,
      function: "notify",
      expires_at: events[1]!.data.expires_at
    })
    expect((await server.send("POST", `${base}/runs/${runId}/answer`, { answer: {} })).status).toBe(409)
    expect(await client.listed(base, runId)).toBeUndefined()
  })

  it("goes on with a workflow whose step sends a notification once its tool delivered it", async () => {
    chat.mode = "serving"
    const base = await client.playbook()
    await client.save(base, "notify", notify)
    const flow = `document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\ndo:\n  - tell:\n      call: run_definition\n      with:\n        type: interaction\n        name: notify\n        input: { room: floor, order: W-1 }\n`
    const saved = await server.send("POST", `${base}/definitions/workflow`, { name: "flow", source: flow })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const runId = (await server.send("POST", `${base}/definitions/workflow/flow/run`, {})).body.run_id
    const events = await client.historyWith(base, runId, "run_succeeded")
    expect(ofType(events, "run_succeeded")[0]!.data.output).toEqual({})
    expect(
      chat.calls.some((call) => call.arguments.to === "floor" && call.arguments.message === "Order W-1 shipped.\n")
    ).toBe(true)
  })

  it("retries a failed delivery: Retry-After honoured, then the schedule's delay, until one succeeds", async () => {
    chat.mode = "rate_limited"
    const base = await client.playbook()
    await client.save(base, "ask", ask)
    const runId = (await client.run(base, "ask")).body.run_id
    const first = ofType(await client.historyWith(base, runId, "delivery_failed"), "delivery_failed")[0]!
    expect(first.data).toMatchObject({ number: 1, because: "server_failure", retry_after_ms: 7_000 })
    expect(Date.parse(first.data.next_attempt_at) - Date.parse(first.metadata.at)).toBe(7_000)
    expect(first.summary).toBe(
      `Delivery attempt 1 failed: server failure; the next is at ${first.data.next_attempt_at}.`
    )
    expect(await client.listed(base, runId)).toMatchObject({ attempts: 1, standing: "retrying" })

    chat.mode = "failing"
    const second = ofType(
      await client.historyWith(base, runId, "delivery_failed", 2, { advance: true }),
      "delivery_failed"
    )
    expect(second[1]!.data).toMatchObject({ number: 2, because: "server_failure" })
    expect(second[1]!.data.retry_after_ms).toBeUndefined()
    expect(Date.parse(second[1]!.data.next_attempt_at) - Date.parse(second[1]!.metadata.at)).toBe(120_000)

    chat.mode = "serving"
    const events = await client.historyWith(base, runId, "delivery_succeeded", 1, { advance: true })
    const starts = ofType(events, "delivery_started")
    expect(starts.map((event) => event.data.number)).toEqual([1, 2, 3])
    expect(Date.parse(starts[1]!.metadata.at)).toBeGreaterThanOrEqual(Date.parse(first.data.next_attempt_at))
    expect(Date.parse(starts[2]!.metadata.at)).toBeGreaterThanOrEqual(Date.parse(second[1]!.data.next_attempt_at))
    expect(starts[1]!.metadata.causation_id).toBe(first.id)
    expect(await client.listed(base, runId)).toMatchObject({ attempts: 3, standing: "delivered" })
  })

  it("ends a notification whose five attempts all failed unanswered/undelivered; its run id then answers 410", async () => {
    chat.mode = "tool_error"
    const base = await client.playbook()
    await client.save(base, "notify", notify)
    const runId = crypto.randomUUID()
    expect((await client.run(base, "notify", { input, run_id: runId })).status).toBe(200)
    const events = await client.historyWith(base, runId, "run_rejected", 1, { advance: true })
    const failures = ofType(events, "delivery_failed")
    expect(failures.map((event) => [event.data.number, event.data.because])).toEqual(
      [1, 2, 3, 4, 5].map((number) => [number, "tool_error"])
    )
    expect(failures[0]!.data.detail).toContain("The room is archived.")
    expect(
      failures.slice(0, 4).map((event) => Date.parse(event.data.next_attempt_at) - Date.parse(event.metadata.at))
    ).toEqual([60_000, 120_000, 240_000, 480_000])
    expect(failures[4]!.data.next_attempt_at).toBeUndefined()
    expect(ofType(events, "run_rejected")[0]!.data).toMatchObject({ reason: "unanswered", kind: "undelivered" })
    const again = await client.run(base, "notify", { input, run_id: runId })
    expect(again.status).toBe(410)
    expect(again.body).toMatchObject({ type: "https://on.auto/problems/unanswered", kind: "undelivered" })
  })

  it("refuses a delivery the tool refuses the arguments of; the question stays open, undelivered, and takes an answer", async () => {
    chat.mode = "refusing"
    const base = await client.playbook()
    await client.save(base, "ask", ask)
    const runId = (await client.run(base, "ask")).body.run_id
    const events = await client.historyWith(base, runId, "delivery_refused")
    expect(ofType(events, "delivery_refused")[0]!.data).toMatchObject({
      number: 1,
      because: "unworkable",
      reason: "arguments_refused"
    })
    expect(ofType(events, "delivery_refused")[0]!.data.detail).toContain("room must name a room")
    expect(await client.listed(base, runId)).toMatchObject({ attempts: 1, standing: "undelivered" })
    expect((await server.send("GET", `${base}/runs/${runId}`)).body.status).toBe("started")
    expect((await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { decision: "grant" } })).status).toBe(
      200
    )
    await client.historyWith(base, runId, "run_succeeded")
  })

  it("fails an attempt whose tool its server no longer lists, and tries again", async () => {
    chat.mode = "unlisted"
    const base = await client.playbook()
    await client.save(base, "ask", ask)
    const runId = (await client.run(base, "ask")).body.run_id
    const failed = ofType(await client.historyWith(base, runId, "delivery_failed"), "delivery_failed")[0]!
    expect(failed.data).toMatchObject({ number: 1, because: "tool_not_offered" })
    expect(chat.calls.some((call) => call.arguments.run === runId)).toBe(false)
    chat.mode = "serving"
    await client.historyWith(base, runId, "delivery_succeeded", 1, { advance: true })
  })

  it("refuses at the run's start a tool the playbook may not use, and arguments that cannot be sent; nothing is sent", async () => {
    chat.mode = "serving"
    const base = await client.playbook()
    const calls = chat.calls.length
    await client.save(base, "elsewhere", ask.replace("server: chat", "server: elsewhere"))
    const elsewhere = await client.run(base, "elsewhere")
    expect([elsewhere.status, elsewhere.body.kind, elsewhere.body.because]).toEqual([
      503,
      "tool_not_offered",
      "tool_server_not_configured"
    ])
    await client.save(base, "delete", ask.replace("tool: send_message", "tool: delete_room"))
    const notAllowed = await client.run(base, "delete")
    expect([notAllowed.status, notAllowed.body.kind, notAllowed.body.because]).toEqual([
      503,
      "tool_not_offered",
      "tool_not_allowed"
    ])
    await client.save(base, "missing", ask.replace("priority: 2", "extra: '{{ input.extra.note }}'"))
    const missing = await client.run(base, "missing")
    expect(missing.status).toBe(422)
    expect(missing.body.errors[0].pointer).toMatch(/^\/input\/extra/)
    await client.save(base, "big", ask.replace("priority: 2", "blob: '{{ input.order }}'"))
    const large = await client.run(base, "big", { input: { ...input, order: "x".repeat(8_100) } })
    expect([large.status, large.body.kind]).toEqual([409, "unworkable"])
    expect(large.body.detail).toContain("a call holds at most 16384")
    expect(chat.calls.length).toBe(calls)
  })

  it("saves a delivery through a tool, one that reads replies and one that tells; refuses what tell may not read, and sent pointers that are not pointers", async () => {
    const base = await client.playbook()
    expect((await client.save(base, "ask", ask)).status).toBe(201)
    const replies = await client.save(
      base,
      "replies",
      ask.replace(
        "output:",
        "replies:\n  tool: list_thread\n  read:\n    list: /items\n    order: oldest_first\n    each: { id: /id, sender: /from, text: /text }\noutput:"
      )
    )
    expect(replies.status).toBe(201)
    const telling = await client.save(
      base,
      "telling",
      ask.replace(
        "output:",
        "replies:\n  tool: list_thread\n  read:\n    list: /items\n    order: oldest_first\n    each: { id: /id, sender: /from, text: /text }\n  tell:\n    with: { room: '{{ sent.conversation }}', body: '{{ message }}' }\noutput:"
      )
    )
    expect(telling.status).toBe(201)
    const unknownInTell = await client.save(
      base,
      "telling-unknown",
      ask.replace(
        "output:",
        "replies:\n  tool: list_thread\n  read:\n    list: /items\n    order: oldest_first\n    each: { id: /id, sender: /from, text: /text }\n  tell:\n    with: { room: '{{ sent.conversation }}', body: '{{ input.order }}' }\noutput:"
      )
    )
    expect(unknownInTell.status).toBe(422)
    expect(unknownInTell.body.errors[0].detail).toContain(
      "at /replies/tell/with/body: line 1 of the template: unknown variable input"
    )
    const unknown = await client.save(base, "unknown", ask.replace("'{{ run_id }}'", "'{{ run }}'"))
    expect(unknown.status).toBe(422)
    expect(unknown.body.errors[0].detail).toContain(
      "at /deliver/with/run: line 1 of the template: unknown variable run"
    )
    const sent = await client.save(base, "sent", ask.replace("id: /message_id", "id: message_id"))
    expect(sent.status).toBe(422)
    expect(sent.body.errors[0].detail).toContain("at /deliver/sent/id: expected a JSON pointer")
  })
})

postgresSuite("interaction deliveries across a restart (acceptance)", "alongside", (database) => {
  const store: AcceptanceStore = { kind: "postgres", url: database.url, schema: database.schema }
  let chat: ChatServer
  beforeAll(async () => {
    chat = await serveChat()
  })
  afterAll(() => chat?.close())

  it("an attempt its instance left open counts as lost at its lost_at; another instance then delivers the request", async () => {
    chat.mode = "hanging"
    const firstClock = makeClock()
    const first = await startServer(store, chat, firstClock)
    const firstClient = clientOf(() => first, firstClock)
    const base = await firstClient.playbook()
    await firstClient.save(base, "ask", ask)
    const runId = (await firstClient.run(base, "ask")).body.run_id
    const opened = ofType(await firstClient.historyWith(base, runId, "delivery_started"), "delivery_started")[0]!
    await first.close()

    chat.mode = "serving"
    const clock = makeClock()
    const second = await startServer(store, chat, clock)
    try {
      const client = clientOf(() => second, clock)
      const lost = ofType(
        await client.historyWith(base, runId, "delivery_failed", 1, { advance: true, orphaned: true }),
        "delivery_failed"
      )
      expect(lost[0]!.data).toMatchObject({ number: 1, because: "lost" })
      expect(Date.parse(lost[0]!.metadata.at)).toBeGreaterThanOrEqual(Date.parse(opened.data.lost_at))
      const events = await client.historyWith(base, runId, "delivery_succeeded", 1, { advance: true })
      expect(ofType(events, "delivery_started").map((event) => event.data.number)).toEqual([1, 2])
      expect(await client.listed(base, runId)).toMatchObject({ attempts: 2, standing: "delivered" })
    } finally {
      await second.close()
    }
  })
})
