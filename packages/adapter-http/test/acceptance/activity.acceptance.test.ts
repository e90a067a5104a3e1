import type { ApiKeyConfig } from "@runledger/core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { askTo as ask, double } from "./readSideDocuments.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

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

/** Two people of one org, each with every permission. */
const movedKeys: ReadonlyArray<ApiKeyConfig> = ["a", "b"].map((who) => ({
  key: `key-${who}`,
  name: `person-${who}`,
  org: "moved",
  permissions: full
}))

onEveryStore("the organization's activity over HTTP on a clock the test moves", (store) => {
  const clock = makeShiftedClock()
  let server: AcceptanceServer
  beforeAll(async () => {
    server = await startAcceptanceServer(store(), { localMode: false, apiKeys: movedKeys }, clock.layer)
  }, 60_000)
  afterAll(() => server?.close())

  const send = (method: string, path: string, body: unknown, who: "a" | "b") =>
    server.send(method, path, body, { authorization: `Bearer key-${who}` })
  const read = async (query: string, who: "a" | "b") => {
    const page = await send("GET", `/v1/orgs/moved/activity?${query}`, undefined, who)
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    return page.body
  }
  const runRows = (page: any) => page.rows.filter((row: any) => row.kind === "new" && row.run_id !== null)

  it("a first read shows the last 7 days as new; mine and since keep their rows; a reopened comment is new to all but who reopened it", async () => {
    const base = "/v1/orgs/moved/playbooks/finance"
    expect((await send("POST", "/v1/orgs/moved/playbooks", { playbook: "finance", name: "F" }, "a")).status).toBe(201)
    expect(
      (await send("POST", `${base}/definitions/computation`, { name: "double", source: double, diagram: "none" }, "a"))
        .status
    ).toBe(201)
    const run = async (n: number, who: "a" | "b") => {
      const ran = await send("POST", `${base}/definitions/computation/double/run`, { input: { n } }, who)
      expect(ran.body.status).toBe("succeeded")
      return ran.body.run_id as string
    }
    const old = await run(1, "b")
    clock.shift("8 days")
    const second = await run(2, "b")
    const third = await run(3, "b")
    const own = await run(4, "a")

    const first = await read("kind=new&playbook=finance", "a")
    expect(runRows(first).map((row: any) => [row.run_id, row.seen])).toEqual([
      [own, true],
      [third, false],
      [second, false],
      [old, true]
    ])
    expect(first.counts).toEqual({ needs_you: 0, broken: 0, new: 2, comments: 0 })
    expect(first.through).toBeNull()
    const mine = await read("mine=true&kind=new", "a")
    expect(mine.rows.every((row: any) => row.by === "key:person-a")).toBe(true)
    expect(runRows(mine).map((row: any) => row.run_id)).toEqual([own])
    const secondRow = runRows(first).find((row: any) => row.run_id === second)
    const since = await read(`kind=new&since=${secondRow.cursor}`, "a")
    expect(runRows(since).map((row: any) => row.run_id)).toEqual([own, third])

    const comment = (await send("POST", `${base}/comments`, { address: "playbooks/finance", text: "Look" }, "b")).body
    const commentRow = async (who: "a" | "b") => {
      const page = await read("kind=comment", who)
      return { row: page.rows.find((row: any) => row.address === `finance/comments/${comment.id}`), count: page.counts }
    }
    expect(await commentRow("a")).toMatchObject({ row: { seen: false, by: "key:person-b" }, count: { comments: 1 } })
    expect(await commentRow("b")).toMatchObject({ row: { seen: true }, count: { comments: 0 } })
    clock.shift("1 minute")
    await send("POST", `${base}/comments/${comment.id}/resolve`, { how: "acted" }, "a")
    expect(await commentRow("b")).toMatchObject({ row: undefined, count: { comments: 0 } })
    clock.shift("1 minute")
    const reopened = (await send("POST", `${base}/comments/${comment.id}/reopen`, undefined, "a")).body
    const forMaker = await commentRow("b")
    expect(forMaker).toMatchObject({
      row: { seen: false, by: "key:person-b", at: reopened.reopened_at },
      count: { comments: 1 }
    })
    expect(await commentRow("a")).toMatchObject({ row: { seen: true }, count: { comments: 0 } })
    const marked = await send(
      "POST",
      "/v1/orgs/moved/activity/seen",
      { items: [{ address: forMaker.row.address, at: forMaker.row.at }] },
      "b"
    )
    expect(marked.body.counts.comments).toBe(0)

    const tooMany = await send(
      "POST",
      "/v1/orgs/moved/activity/seen",
      { items: Array.from({ length: 201 }, () => ({ address: forMaker.row.address, at: forMaker.row.at })) },
      "a"
    )
    expect([tooMany.status, tooMany.body.errors[0].pointer]).toEqual([422, "/items"])
    expect((await send("POST", `${base}/retire`, undefined, "a")).status).toBe(200)
    expect((await read("playbook=finance", "a")).rows).toEqual([])
  })
})
