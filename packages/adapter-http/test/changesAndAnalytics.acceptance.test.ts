import { RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listen, toWebHandler } from "../src/index.js"

/** The store a server runs on: memory, or a schema of its own on PostgreSQL. */
type Store = { readonly kind: "memory" } | { readonly kind: "postgres"; readonly url: string; readonly schema: string }

const keys = [
  {
    key: "full",
    name: "build-bot",
    org: "acme",
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"]
  },
  { key: "limited", name: "limited", org: "acme", permissions: ["org:read", "playbook:read"], playbooks: ["finance"] }
] as const

/** A runtime on a store with two keys, its handler served over real HTTP on 127.0.0.1. */
const startServer = async (store: Store) => {
  const storeLayer =
    store.kind === "memory" ? MemoryStore.layer : PostgresStore.layer({ url: store.url, schema: store.schema })
  const runtime = ManagedRuntime.make(
    Layer.merge(
      RunLedger.layer({
        localMode: false,
        apiKeys: keys.map((key) => ({ ...key, permissions: [...key.permissions] }))
      }),
      storeLayer
    )
  )
  const server = await listen(toWebHandler(runtime), { port: 0 })
  const send = async (method: string, path: string, body?: unknown, key = "full") => {
    const response = await fetch(`${server.url}/v1/orgs/acme${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() }
  }
  return {
    runtime,
    send,
    close: async () => {
      await server.close()
      await runtime.dispose()
    }
  }
}

/** A request held for an agent, answered with any object. */
const ask = `---
description: Asks anything
to: dana
expires: P1D
deliver: agent
output:
  schema: { type: object }
---
Anything?
`

/** A computation function that returns its input. */
const echo = `---
description: Echoes its input
language: typescript
---
export default function (input: Json): Json {
  return input;
}
`

const suite = (store: () => Store) => {
  let server: Awaited<ReturnType<typeof startServer>>
  beforeAll(async () => {
    server = await startServer(store())
    expect((await server.send("POST", "/playbooks", { playbook: "finance", name: "Finance" })).status).toBe(201)
    expect((await server.send("POST", "/playbooks", { playbook: "sales", name: "Sales" })).status).toBe(201)
    const created = await server.send("POST", "/playbooks/finance/definitions/computation", {
      name: "echo",
      source: echo,
      diagram: "none"
    })
    expect([created.status, created.body.detail]).toEqual([201, undefined])
    // A first run starts the sandbox, so the hold below measures the changes route, not the sandbox's start.
    expect(
      (await server.send("POST", "/playbooks/finance/definitions/computation/echo/run", { input: 0 })).status
    ).toBe(200)
  }, 60_000)
  afterAll(() => server.close())

  it("list_playbook_changes: a held request ends with the id of a run another request started", async () => {
    const now = await server.send("GET", "/playbooks/finance/changes")
    expect(now).toEqual({ status: 200, body: { cursor: expect.any(String), changes: [], more: false } })
    const held = server.send("GET", `/playbooks/finance/changes?since=${now.body.cursor}&wait=10`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const started = performance.now()
    const run = await server.send("POST", "/playbooks/finance/definitions/computation/echo/run", { input: 1 })
    const answer = await held
    const delay = performance.now() - started
    console.log(`${store().kind}: list_playbook_changes released ${delay.toFixed(1)} ms after run_definition was sent`)
    expect(run.status).toBe(200)
    expect(answer.status).toBe(200)
    expect(answer.body.changes).toContainEqual({ kind: "run", run_id: run.body.run_id })
    expect(delay).toBeLessThan(2000)
    // The run's start ended the hold; its end, if it came after, is the next answer's, and then nothing is left.
    const next = await server.send("GET", `/playbooks/finance/changes?since=${answer.body.cursor}&wait=0`)
    expect(next.body.changes.filter((change: { run_id?: string }) => change.run_id !== run.body.run_id)).toEqual([])
    const quiet = await server.send("GET", `/playbooks/finance/changes?since=${next.body.cursor}&wait=0`)
    expect(quiet.body).toEqual({ cursor: next.body.cursor, changes: [], more: false })
  })

  it("list_playbook_changes refuses a wait over 25 at /wait, and a cursor the ledger does not hold as cursor_not_held", async () => {
    const wait = await server.send("GET", "/playbooks/finance/changes?wait=26")
    expect(wait.status).toBe(422)
    expect(wait.body).toMatchObject({ reason: "invalid_input", errors: [{ pointer: "/wait" }] })
    const sales = await server.send("GET", "/playbooks/sales/changes")
    for (const since of [sales.body.cursor, "WyIxMjMiLCIwNmJhYjQ1YS0wNTVhIl0"]) {
      const refused = await server.send("GET", `/playbooks/finance/changes?since=${since}`)
      expect(refused.status).toBe(422)
      expect(refused.body).toMatchObject({
        type: "https://on.auto/problems/cursor_not_held",
        reason: "invalid_input",
        kind: "cursor_not_held",
        errors: [{ pointer: "/since" }]
      })
    }
  })

  it("names every kind of both tables, each resource once, in the order the ledger recorded them", async () => {
    const playbook = `kinds-${crypto.randomUUID().slice(0, 8)}`
    const orgSince = (await server.send("GET", "/changes")).body.cursor
    expect((await server.send("POST", "/playbooks", { playbook, name: "Kinds" })).status).toBe(201)
    const base = `/playbooks/${playbook}`
    const since = (await server.send("GET", `${base}/changes`)).body.cursor
    expect(
      (await server.send("POST", `${base}/definitions/interaction`, { name: "ask", source: ask, diagram: "none" }))
        .status
    ).toBe(201)
    const runId = (await server.send("POST", `${base}/definitions/interaction/ask/run`, { input: {} })).body.run_id
    expect((await server.send("POST", `${base}/runs/${runId}/answer`, { answer: { ok: true } })).status).toBe(200)
    expect((await server.send("POST", `${base}/events`, { event: { source: "crm", type: "deal.won" } })).status).toBe(
      200
    )
    const comment = (await server.send("POST", `${base}/comments`, { address: `playbooks/${playbook}`, text: "Hi" }))
      .body
    await server.send("POST", `${base}/comments/${comment.id}/resolve`, { how: "acted" })
    expect((await server.send("PUT", base, { page: "title: Kinds\n" })).status).toBe(200)
    const orgComment = (await server.send("POST", "/comments", { address: "org", text: "Hello" })).body
    // On PostgreSQL the global order shows a fact once every older transaction on the server has ended: read
    // until the last one shows.
    const settled = async (path: string, count: number) => {
      let answer = (await server.send("GET", path)).body
      for (let read = 0; read < 200 && answer.changes.length < count; read++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        answer = (await server.send("GET", path)).body
      }
      return answer
    }
    const changes = await settled(`${base}/changes?since=${since}&wait=0`, 6)
    expect(changes).toMatchObject({ more: false })
    expect(changes.changes).toEqual([
      { kind: "definition", type: "interaction", name: "ask" },
      { kind: "run", run_id: runId },
      { kind: "interaction", run_id: runId },
      { kind: "event", event_id: expect.any(String) },
      { kind: "comment", comment_id: comment.id },
      { kind: "playbook" }
    ])
    const orgChanges = (await settled(`/changes?since=${orgSince}&wait=0`, 2)).changes
    expect(orgChanges).toEqual([
      { kind: "playbook", playbook },
      { kind: "comment", comment_id: orgComment.id }
    ])
  })

  it("list_org_changes names to a key limited to some playbooks only theirs", async () => {
    const full = await server.send("GET", "/changes")
    const limited = await server.send("GET", "/changes", undefined, "limited")
    await server.send("PUT", "/playbooks/sales", { description: "Deals" })
    await server.send("PUT", "/playbooks/finance", { description: "Money" })
    expect((await server.send("GET", `/changes?since=${full.body.cursor}&wait=0`)).body.changes).toEqual([
      { kind: "playbook", playbook: "sales" },
      { kind: "playbook", playbook: "finance" }
    ])
    expect(
      (await server.send("GET", `/changes?since=${limited.body.cursor}&wait=0`, undefined, "limited")).body.changes
    ).toEqual([{ kind: "playbook", playbook: "finance" }])
  })

  it("get_playbook_analytics counts the runs that ended, every day of the window present, and refuses at the parameter", async () => {
    await server.send("POST", "/playbooks", { playbook: "metrics", name: "Metrics" })
    await server.send("POST", "/playbooks/metrics/definitions/computation", {
      name: "echo",
      source: echo,
      diagram: "none"
    })
    await server.send("POST", "/playbooks/metrics/definitions/computation/echo/run", { input: 1 })
    await server.send("POST", "/playbooks/metrics/definitions/computation/echo/run", { input: 2 })
    const answer = await server.send("GET", "/playbooks/metrics/analytics?days=7&type=computation")
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      days: 7,
      runs: { total: 2, succeeded: 2, failed: 0, rejected: 0 },
      tokens: { input: 0, output: 0, cached: 0 },
      cost_usd: null,
      by_function: [
        { type: "computation", name: "echo", runs: 2, tokens: { input: 0, output: 0, cached: 0 }, cost_usd: null }
      ]
    })
    expect(answer.body.by_day).toHaveLength(7)
    expect(answer.body.by_day[6].runs.total).toBe(2)
    expect(answer.body.duration_ms).toEqual({ p50: expect.any(Number), p95: expect.any(Number) })
    for (const [query, pointer] of [
      ["days=10", "/days"],
      ["days=7&from=2026-01-01&to=2026-01-02", "/days"],
      ["from=2026-01-01", "/to"],
      ["from=2026-02-30&to=2026-03-02", "/from"],
      ["from=2026-03-02&to=2026-03-01", "/to"],
      ["week=1", "/week"]
    ]) {
      const refused = await server.send("GET", `/playbooks/metrics/analytics?${query}`)
      expect([query, refused.status, refused.body.errors?.[0]?.pointer]).toEqual([query, 422, pointer])
    }
    expect((await server.send("GET", "/playbooks/nothing/analytics")).status).toBe(404)
  })

  it("get_playbook_analytics counts only ended runs, a rejected one without a duration, most runs first; windows up to 366 days", async () => {
    const playbook = `counted-${crypto.randomUUID().slice(0, 8)}`
    const base = `/playbooks/${playbook}`
    await server.send("POST", "/playbooks", { playbook, name: "Counted" })
    const strict = echo.replace(
      "language: typescript\n",
      "language: typescript\ninput:\n  schema: { type: object, required: [n] }\n"
    )
    for (const [type, name, source] of [
      ["computation", "echo", echo],
      ["computation", "strict", strict],
      ["interaction", "ask", ask]
    ])
      expect((await server.send("POST", `${base}/definitions/${type}`, { name, source, diagram: "none" })).status).toBe(
        201
      )
    for (const input of [1, 2]) await server.send("POST", `${base}/definitions/computation/echo/run`, { input })
    expect((await server.send("POST", `${base}/definitions/computation/strict/run`, { input: {} })).status).toBe(422)
    await server.send("POST", `${base}/definitions/interaction/ask/run`, { input: {} })
    const answered = (await server.send("POST", `${base}/definitions/interaction/ask/run`, { input: {} })).body.run_id
    expect((await server.send("POST", `${base}/runs/${answered}/answer`, { answer: {} })).status).toBe(200)
    const answer = (await server.send("GET", `${base}/analytics`)).body
    expect(answer).toMatchObject({
      days: 7,
      runs: { total: 4, succeeded: 3, failed: 0, rejected: 1 },
      by_function: [
        { type: "computation", name: "echo", runs: 2 },
        { type: "computation", name: "strict", runs: 1 },
        { type: "interaction", name: "ask", runs: 1 }
      ]
    })
    expect(answer.by_day.at(-1).runs).toEqual({ total: 4, succeeded: 3, failed: 0, rejected: 1 })
    expect(answer.by_day.slice(0, 6).every((day: any) => day.runs.total === 0 && day.duration_ms === null)).toBe(true)
    const rejected = (await server.send("GET", `${base}/analytics?type=computation&name=strict`)).body
    expect([rejected.runs, rejected.duration_ms]).toEqual([{ total: 1, succeeded: 0, failed: 0, rejected: 1 }, null])
    const today = answer.by_day.at(-1).day as string
    const yearBack = new Date(Date.parse(today) - 365 * 86_400_000).toISOString().slice(0, 10)
    const year = await server.send("GET", `${base}/analytics?from=${yearBack}&to=${today}`)
    expect([year.status, year.body.days, year.body.by_day.length, year.body.runs.total]).toEqual([200, 366, 366, 4])
    const longer = new Date(Date.parse(yearBack) - 86_400_000).toISOString().slice(0, 10)
    const tooLong = await server.send("GET", `${base}/analytics?from=${longer}&to=${today}`)
    expect([tooLong.status, tooLong.body.errors?.[0]?.pointer]).toEqual([422, "/from"])
    const tomorrow = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10)
    const future = await server.send("GET", `${base}/analytics?from=${today}&to=${tomorrow}`)
    expect([future.status, future.body.errors?.[0]?.pointer]).toEqual([422, "/to"])
  })

  it("answers a held request at once when the runtime stops", async () => {
    const stopping = await startServer(store())
    const playbook = `stops-${crypto.randomUUID().slice(0, 8)}`
    expect((await stopping.send("POST", "/playbooks", { playbook, name: "Stops" })).status).toBe(201)
    // The cursor past every change so far: on PostgreSQL the playbook's creation may show in the global order only
    // after the first cursor was given.
    const quiet = async (path: string) => {
      let cursor = (await stopping.send("GET", path)).body.cursor
      for (let read = 0; read < 50; read++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        const answer = (await stopping.send("GET", `${path}?since=${cursor}&wait=0`)).body
        if (answer.changes.length === 0) return cursor
        cursor = answer.cursor
      }
      throw new Error(`${path} kept changing`)
    }
    const now = [await quiet(`/playbooks/${playbook}/changes`), await quiet("/changes")]
    const held = Promise.all([
      stopping.send("GET", `/playbooks/${playbook}/changes?since=${now[0]}&wait=25`),
      stopping.send("GET", `/changes?since=${now[1]}`)
    ])
    await new Promise((resolve) => setTimeout(resolve, 300))
    const stoppedAt = performance.now()
    await stopping.runtime.dispose()
    const answers = await held
    expect(performance.now() - stoppedAt).toBeLessThan(2000)
    expect(answers).toEqual(now.map((cursor) => ({ status: 200, body: { cursor, changes: [], more: false } })))
    await stopping.close()
  })
}

describe("changes and analytics over HTTP (memory store)", () => suite(() => ({ kind: "memory" })))
postgresSuite("changes and analytics over HTTP", "alongside", (database) =>
  suite(() => ({ kind: "postgres", url: database.url, schema: database.schema }))
)
