import { Either } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { type ActivityFixture, askDocument, makeActivityFixture } from "./activityFixture.js"

let f: ActivityFixture
beforeEach(async () => {
  f = await makeActivityFixture()
})
afterEach(() => f.runtime.dispose())

const rowsOf = async (kind: string, input: Record<string, unknown> = {}, key = "full") =>
  (await f.list({ kind, ...input }, key)).rows as Array<any>

const nulls = {
  by_name: null,
  change: null,
  trigger: null,
  definition: null,
  run_id: null,
  output_shape: null,
  message: null,
  answer_schema: null,
  detail: null,
  status: null,
  waits_on: null,
  expires_at: null,
  about: null
}

describe("new rows", () => {
  it("lists each version saved, each run no other run started that succeeded, and each playbook change", async () => {
    const saved = await f.save("computation", "echo", "Echoes\nshape: series")
    await f.ok(
      "update_definition",
      { type: "computation", name: "echo", source: "Echoes again\nshape: series", diagram: "none" },
      { playbook: "finance" }
    )
    const run = await f.run("echo", { a: 1 })
    const runId = (run as Either.Right<never, any>).right.run_id
    const rows = await rowsOf("new", { playbook: "finance" })
    expect(rows.map((row) => row.address)).toEqual([
      `finance/runs/${runId}`,
      "finance/definitions/computation/echo/2",
      "finance/definitions/computation/echo/1",
      "playbooks/finance/1"
    ])
    expect(rows[0]).toEqual({
      ...nulls,
      kind: "new",
      address: `finance/runs/${runId}`,
      cursor: rows[0].cursor,
      playbook: "finance",
      at: rows[0].at,
      by: "key:build-bot",
      definition: { type: "computation", name: "echo", version: 2 },
      run_id: runId,
      output_shape: "series",
      seen: true
    })
    expect(rows[1]).toMatchObject({ change: "updated", definition: { version: 2 }, by: "key:build-bot", run_id: null })
    expect(rows[2]).toMatchObject({ change: "created", at: saved.created_at })
    expect(rows[3]).toMatchObject({ ...nulls, kind: "new", change: "created", playbook: "finance", definition: null })
    expect(Object.keys(rows[0])).toEqual(
      ["kind", "address", "cursor", "playbook", "at", "by", ...Object.keys(nulls).slice(0, 12), "about", "seen"].filter(
        (key, index, all) => all.indexOf(key) === index
      )
    )
  })

  it("a run that failed or was rejected has no new row", async () => {
    await f.save("computation", "echo", "Echoes")
    await f.run("echo", { refuse: true })
    await f.run("echo", { die: true })
    expect((await rowsOf("new", { playbook: "finance" })).filter((row) => row.run_id !== null)).toEqual([])
  })

  it("an update of a playbook's name and page together is one change, at its time", async () => {
    const updated = await f.ok("update_playbook", { playbook: "sales", name: "Sales", page: "title: Sales\n" })
    const rows = (await rowsOf("new", { playbook: "sales" })).filter((row) => row.change !== null)
    expect(rows.map((row) => [row.change, Date.parse(row.at)])).toEqual([
      ["updated", Date.parse(updated.updated_at)],
      ["created", Date.parse(updated.created_at)]
    ])
    expect(rows[0]!.address).toMatch(/^playbooks\/sales\/\d+$/)
    expect(rows[1]!.address).toBe("playbooks/sales/1")
  })

  it("keeps the newest 100 changes of the register; an older change has no row", async () => {
    for (let index = 0; index < 100; index++)
      await f.ok("update_playbook", { playbook: "archive", description: `change ${index}` })
    const rows = (await rowsOf("new", { limit: 200 })).filter((row) => row.address.startsWith("playbooks/"))
    expect(rows).toHaveLength(100)
    expect(rows.every((row) => row.playbook === "archive" && row.change === "updated")).toBe(true)
    expect(new Set(rows.map((row) => row.address)).size).toBe(100)
  })
})

describe("broken rows", () => {
  beforeEach(async () => {
    await f.save("computation", "echo", "Echoes")
  })

  it("lists a definition whose latest run at its version was rejected, with its detail and status", async () => {
    const refused = await f.run("echo", { refuse: true })
    expect(Either.isLeft(refused)).toBe(true)
    const [row] = await rowsOf("broken")
    const runs = await f.ok("list_runs", {}, { playbook: "finance" })
    expect(row).toEqual({
      ...nulls,
      kind: "broken",
      address: "finance/computation/echo",
      cursor: row.cursor,
      playbook: "finance",
      at: runs.runs[0].ended_at,
      by: "key:build-bot",
      definition: { type: "computation", name: "echo", version: 1 },
      run_id: runs.runs[0].run_id,
      detail: "refuse: is refused.",
      status: "rejected",
      seen: null
    })
  })

  it("a run that failed inside the runtime is failed without a detail; the latest failure moves the row", async () => {
    await f.run("echo", { refuse: true })
    const first = (await rowsOf("broken"))[0]
    await f.run("echo", { die: true })
    const rows = await rowsOf("broken")
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ status: "failed", detail: null })
    expect(rows[0].run_id).not.toBe(first.run_id)
    expect(Date.parse(rows[0].at)).toBeGreaterThanOrEqual(Date.parse(first.at))
  })

  it("closes when a run succeeds, and opens again at the next break", async () => {
    await f.run("echo", { refuse: true })
    await f.run("echo", { a: 1 })
    expect(await rowsOf("broken")).toEqual([])
    await f.run("echo", { die: true })
    expect((await rowsOf("broken")).map((row) => row.status)).toEqual(["failed"])
  })

  it("closes when a new version is saved, and a failure of an older version does not open it", async () => {
    await f.run("echo", { refuse: true })
    await f.ok(
      "update_definition",
      { type: "computation", name: "echo", source: "Echoes v2", diagram: "none" },
      { playbook: "finance" }
    )
    expect(await rowsOf("broken")).toEqual([])
    await f.run("echo", { refuse: true })
    expect((await rowsOf("broken"))[0].definition).toEqual({ type: "computation", name: "echo", version: 2 })
  })

  it("closes when the definition is retired", async () => {
    await f.run("echo", { refuse: true })
    await f.ok("retire_definition", { type: "computation", name: "echo" }, { playbook: "finance" })
    expect(await rowsOf("broken")).toEqual([])
  })

  it("cuts a long detail to 200 characters, 199 and an ellipsis", async () => {
    await f.save("interaction", "ask", askDocument)
    await f.run("ask", { to: "x".repeat(300), order: 1 }, "finance", "interaction")
    const [row] = await rowsOf("broken")
    expect(row.address).toBe("finance/interaction/ask")
    expect(Array.from(row.detail)).toHaveLength(200)
    expect(row.detail.endsWith("…")).toBe(true)
  })
})

describe("needs_you rows", () => {
  beforeEach(async () => {
    await f.save("interaction", "ask", askDocument)
  })

  const ask = async (to: string) =>
    ((await f.run("ask", { to, order: 17 }, "finance", "interaction")) as Either.Right<never, any>).right

  it("lists a request with its first line, answer schema, whom it waits on and its expiry", async () => {
    const run = await ask("Dana@Example.com")
    const [row] = await rowsOf("needs_you")
    expect(row).toEqual({
      ...nulls,
      kind: "needs_you",
      address: `finance/${run.run_id}`,
      cursor: row.cursor,
      playbook: "finance",
      at: run.started_at,
      by: "key:build-bot",
      definition: { type: "interaction", name: "ask", version: 1 },
      run_id: run.run_id,
      message: "Refund order 17?",
      answer_schema: {
        type: "object",
        required: ["decision"],
        properties: { decision: { type: "string", enum: ["grant", "deny"] } }
      },
      waits_on: "dana@example.com",
      expires_at: new Date(Date.parse(run.started_at) + 3_600_000).toISOString(),
      seen: null
    })
  })

  it("waits on a person named by id, or any member; counts those that wait on the caller", async () => {
    await ask("person:user_7kLm2")
    await ask("the finance team")
    await ask("key:build-bot")
    await ask("dana@example.com")
    const page = await f.list({ kind: "needs_you" })
    expect(page.rows.map((row: any) => row.waits_on).sort()).toEqual(
      ["any_member", "any_member", "dana@example.com", "person:user_7kLm2"].sort()
    )
    expect(page.counts.needs_you).toBe(2)
  })

  it("leaves the activity once answered", async () => {
    const run = await ask("dana@example.com")
    await f.ok("answer_interaction", { run_id: run.run_id, answer: { decision: "grant" } }, { playbook: "finance" })
    expect(await rowsOf("needs_you")).toEqual([])
    expect((await f.list()).counts.needs_you).toBe(0)
  })
})

describe("comment rows", () => {
  it("lists an open comment with its first line, what it is about, and the definition or run it names", async () => {
    const runId = "0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a"
    const step = await f.ok(
      "make_comment",
      { address: "finance/definitions/workflow/close-the-week/4/steps/do/1/review", text: `${"y".repeat(250)}\nmore` },
      { playbook: "finance" }
    )
    const onRun = await f.ok(
      "make_comment",
      { address: `finance/runs/${runId}/result/2`, text: "Why?" },
      { playbook: "finance" }
    )
    const rows = await rowsOf("comment")
    expect(rows[0]).toEqual({
      ...nulls,
      kind: "comment",
      address: `finance/comments/${onRun.id}`,
      cursor: rows[0].cursor,
      playbook: "finance",
      at: onRun.at,
      by: "key:build-bot",
      by_name: "build-bot",
      run_id: runId,
      message: "Why?",
      about: `finance/runs/${runId}/result/2`,
      seen: true
    })
    expect(rows[1]).toMatchObject({
      address: `finance/comments/${step.id}`,
      definition: { type: "workflow", name: "close-the-week", version: 4 },
      run_id: null,
      message: `${"y".repeat(199)}…`
    })
  })

  it("leaves when resolved, and comes back at the time it was reopened, new to its maker", async () => {
    const made = await f.ok(
      "make_comment",
      { address: "playbooks/finance", text: "Rename it" },
      { playbook: "finance", key: "reader" }
    )
    expect((await f.list({}, "full")).counts.comments).toBe(1)
    expect((await f.list({}, "reader")).counts.comments).toBe(0)
    await f.ok("resolve_comment", { id: made.id, how: "acted" }, { playbook: "finance" })
    expect(await rowsOf("comment")).toEqual([])
    expect((await f.list()).counts.comments).toBe(0)
    const reopened = await f.ok("reopen_comment", { id: made.id }, { playbook: "finance" })
    const [row] = await rowsOf("comment")
    expect(row).toMatchObject({ at: reopened.reopened_at, by: "key:reader", seen: true })
    const [asMaker] = await rowsOf("comment", {}, "reader")
    expect(asMaker.seen).toBe(false)
    expect((await f.list({}, "reader")).counts.comments).toBe(1)
    expect((await f.list({}, "full")).counts.comments).toBe(0)
  })

  it("lists the organization's own comments to a caller of every playbook alone", async () => {
    const made = await f.ok("make_comment_in_org", { address: "org/settings/billing", text: "Check" })
    const [row] = await rowsOf("comment")
    expect(row).toMatchObject({ address: `org/comments/${made.id}`, playbook: null, about: "org/settings/billing" })
    expect(await rowsOf("comment", { playbook: "finance" }, "limited")).toEqual([])
    expect((await f.list({ playbook: "finance" }, "limited")).counts.comments).toBe(0)
  })
})
