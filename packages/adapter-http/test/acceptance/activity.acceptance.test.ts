import type { ApiKeyConfig } from "@runledger/core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** A computation that doubles a number; an input without n is rejected. */
const double = `---
description: Doubles a number
language: typescript
input:
  schema:
    type: object
    required: [n]
    properties:
      n: { type: number }
---
export default function (input: Input): Json {
  return { n: input.n * 2 };
}
`

/** A request held for an agent, to the party its input names. */
const ask = `---
description: Ask about a refund
to: '{{ input.to }}'
expires: P1D
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Refund order {{ input.order }}?
`

const full: ApiKeyConfig["permissions"] = ["org:read", "org:write", "playbook:read", "playbook:write"]

/** One org per test, each with a full key; a limited key in the org of the access test, another in the seen one. */
const apiKeys: ReadonlyArray<ApiKeyConfig> = [
  ...["rows", "seen", "access"].map((org) => ({ key: `key-${org}`, name: `bot-${org}`, org, permissions: full })),
  { key: "key-limited", name: "limited", org: "access", permissions: full, playbooks: ["finance"] },
  { key: "key-other", name: "other", org: "seen", permissions: full }
]

onEveryStore("the organization's activity over HTTP", (store) => {
  let server: AcceptanceServer
  beforeAll(async () => {
    server = await startAcceptanceServer(store(), { localMode: true, apiKeys })
  }, 60_000)
  afterAll(() => server?.close())

  const as = (key: string | undefined): Record<string, string> =>
    key === undefined ? {} : { authorization: `Bearer ${key}` }
  const send = (method: string, path: string, body?: unknown, key?: string) => server.send(method, path, body, as(key))
  /** Creates a playbook with the double function and the ask function in an org. */
  const setUp = async (org: string, playbook: string, key?: string) => {
    const base = `/v1/orgs/${org}/playbooks/${playbook}`
    expect((await send("POST", `/v1/orgs/${org}/playbooks`, { playbook, name: playbook }, key)).status).toBe(201)
    for (const [type, name, source] of [
      ["computation", "double", double],
      ["interaction", "ask", ask]
    ])
      expect((await send("POST", `${base}/definitions/${type}`, { name, source, diagram: "none" }, key)).status).toBe(
        201
      )
    return base
  }

  it("lists rows of every kind with every field, newest first, paged, with counts and through", async () => {
    const base = await setUp("rows", "finance", "key-rows")
    const succeeded = await send("POST", `${base}/definitions/computation/double/run`, { input: { n: 2 } }, "key-rows")
    expect(succeeded.body.status).toBe("succeeded")
    const rejected = await send("POST", `${base}/definitions/computation/double/run`, { input: {} }, "key-rows")
    expect(rejected.status).toBe(422)
    const asked = await send(
      "POST",
      `${base}/definitions/interaction/ask/run`,
      { input: { to: "Dana@Example.com", order: 7 } },
      "key-rows"
    )
    expect(asked.body.status).toBe("started")
    const comment = await send("POST", `${base}/comments`, { address: "playbooks/finance", text: "Look" }, "key-rows")
    expect(comment.status).toBe(201)

    const page = await send("GET", "/v1/orgs/rows/activity", undefined, "key-rows")
    expect(page.status).toBe(200)
    const byKind = (kind: string) => page.body.rows.filter((row: any) => row.kind === kind)
    expect(byKind("needs_you")).toEqual([
      expect.objectContaining({
        address: `finance/${asked.body.run_id}`,
        playbook: "finance",
        by: "key:bot-rows",
        definition: { type: "interaction", name: "ask", version: 1 },
        run_id: asked.body.run_id,
        message: "Refund order 7?",
        waits_on: "dana@example.com",
        seen: null
      })
    ])
    expect(byKind("broken")).toEqual([
      expect.objectContaining({ address: "finance/computation/double", status: "rejected", by: "key:bot-rows" })
    ])
    expect(byKind("comment")).toEqual([
      expect.objectContaining({
        address: `finance/comments/${comment.body.id}`,
        about: "playbooks/finance",
        by_name: "bot-rows"
      })
    ])
    expect(byKind("new").map((row: any) => row.address)).toContain(`finance/runs/${succeeded.body.run_id}`)
    expect(Object.keys(page.body)).toEqual(["rows", "has_more", "next_cursor", "counts", "through"])
    expect(page.body).toMatchObject({
      has_more: false,
      next_cursor: null,
      counts: { needs_you: 0, broken: 1, new: 0, comments: 0 },
      through: null
    })
    const ats = page.body.rows.map((row: any) => Date.parse(row.at))
    expect(ats).toEqual([...ats].sort((a: number, b: number) => b - a))

    const first = await send("GET", "/v1/orgs/rows/activity?limit=2&kind=new,needs_you", undefined, "key-rows")
    expect([first.body.rows.length, first.body.has_more]).toEqual([2, true])
    const next = await send(
      "GET",
      `/v1/orgs/rows/activity?limit=2&kind=new,needs_you&cursor=${first.body.next_cursor}`,
      undefined,
      "key-rows"
    )
    expect(next.status).toBe(200)
    expect(next.body.rows[0].address).not.toBe(first.body.rows[1].address)
    expect(next.body.counts).toEqual(page.body.counts)
  })

  it("refuses a kind, a limit, a cursor and a playbook that do not fit, and a kind given twice", async () => {
    const kind = await send("GET", "/v1/orgs/rows/activity?kind=later", undefined, "key-rows")
    expect([kind.status, kind.body.reason, kind.body.errors[0].pointer]).toEqual([422, "invalid_input", "/kind"])
    const limit = await send("GET", "/v1/orgs/rows/activity?limit=201", undefined, "key-rows")
    expect([limit.status, limit.body.errors[0].pointer]).toEqual([422, "/limit"])
    const since = await send("GET", "/v1/orgs/rows/activity?since=abc", undefined, "key-rows")
    expect([since.status, since.body.errors[0].pointer]).toEqual([422, "/since"])
    const twice = await send("GET", "/v1/orgs/rows/activity?kind=new&kind=broken", undefined, "key-rows")
    expect([twice.status, twice.body.reason]).toEqual([400, "bad_request"])
    const missing = await send("GET", "/v1/orgs/rows/activity?playbook=nowhere", undefined, "key-rows")
    expect([missing.status, missing.body.reason]).toEqual([404, "not_found"])
  })

  it("marks items and through seen for the caller, never moving through back", async () => {
    const base = await setUp("seen", "sales", "key-other")
    for (let n = 0; n < 3; n++)
      await send("POST", `${base}/definitions/computation/double/run`, { input: { n } }, "key-other")
    const read = await send("GET", "/v1/orgs/seen/activity?kind=new", undefined, "key-seen")
    expect(read.body.counts.new).toBe(read.body.rows.length)
    const [newest, second, third] = read.body.rows
    const marked = await send(
      "POST",
      "/v1/orgs/seen/activity/seen",
      { items: [{ address: newest.address, at: newest.at }] },
      "key-seen"
    )
    expect(marked.status).toBe(200)
    expect(marked.body).toEqual({ counts: { ...read.body.counts, new: read.body.counts.new - 1 }, through: null })
    const through = await send("POST", "/v1/orgs/seen/activity/seen", { through: second.cursor }, "key-seen")
    expect(through.body.through).toEqual({ cursor: second.cursor, seen_at: expect.any(String) })
    expect(through.body.counts.new).toBe(0)
    const back = await send("POST", "/v1/orgs/seen/activity/seen", { through: third.cursor }, "key-seen")
    expect(back.body.through).toEqual(through.body.through)
    const again = await send("GET", "/v1/orgs/seen/activity?kind=new", undefined, "key-seen")
    expect(again.body.rows.every((row: any) => row.seen)).toBe(true)
    expect(again.body.through).toEqual(through.body.through)

    const nothing = await send("POST", "/v1/orgs/seen/activity/seen", { items: [] }, "key-seen")
    expect([nothing.status, nothing.body.errors[0].pointer]).toEqual([422, "/items"])
    const bad = await send(
      "POST",
      "/v1/orgs/seen/activity/seen",
      { items: [{ address: "x", at: newest.at }] },
      "key-seen"
    )
    expect([bad.status, bad.body.errors[0].pointer]).toEqual([422, "/items/0"])
    const badThrough = await send("POST", "/v1/orgs/seen/activity/seen", { through: "zz" }, "key-seen")
    expect([badThrough.status, badThrough.body.errors[0].pointer]).toEqual([422, "/through"])
  })

  it("in local mode every open request waits on the local developer", async () => {
    const base = await setUp("local", "requests")
    await send("POST", `${base}/definitions/interaction/ask/run`, { input: { to: "dana@example.com", order: 1 } })
    const page = await send("GET", "/v1/orgs/local/activity?kind=needs_you")
    expect(page.body.rows).toHaveLength(1)
    expect(page.body.counts.needs_you).toBe(1)
  })

  it("a caller of some playbooks names one, and may not mark the organization's comments", async () => {
    await setUp("access", "finance", "key-access")
    const own = await send("POST", "/v1/orgs/access/comments", { address: "org", text: "Org-wide" }, "key-access")
    expect(own.status).toBe(201)
    const whole = await send("GET", "/v1/orgs/access/activity?kind=comment", undefined, "key-access")
    expect(whole.body.rows.map((row: any) => row.address)).toEqual([`org/comments/${own.body.id}`])
    const unnamed = await send("GET", "/v1/orgs/access/activity", undefined, "key-limited")
    expect([unnamed.status, unnamed.body.reason]).toEqual([403, "forbidden"])
    const named = await send("GET", "/v1/orgs/access/activity?playbook=finance", undefined, "key-limited")
    expect(named.status).toBe(200)
    expect(named.body.rows.some((row: any) => row.playbook === null)).toBe(false)
    expect(named.body.counts.comments).toBe(0)
    const mark = await send(
      "POST",
      "/v1/orgs/access/activity/seen",
      { items: [{ address: `org/comments/${own.body.id}`, at: own.body.at }] },
      "key-limited"
    )
    expect([mark.status, mark.body.detail]).toEqual([
      403,
      "The caller may not mark the organization's comments, which only a caller who may access every playbook sees"
    ])
  })
})
