import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { type ActivityFixture, askDocument, makeActivityFixture } from "./activityFixture.js"

let f: ActivityFixture
beforeEach(async () => {
  f = await makeActivityFixture()
  await f.save("computation", "echo", "Echoes", "sales")
})
afterEach(() => f.runtime.dispose())

/** Three runs by the limited key, so they are new to the full key. */
const threeRuns = async () => {
  for (let index = 0; index < 3; index++) await f.run("echo", { index }, "sales", "computation", "limited")
  return (await f.list({ kind: "new", playbook: "sales" })).rows.filter((row: any) => row.run_id !== null)
}
const seenFacts = async () => (await f.facts()).filter((fact) => fact.type === "activity_seen")

describe("seen and counted", () => {
  it("a first read shows the last 7 days as new; what is older is seen", async () => {
    f.shiftDays(-8)
    await f.run("echo", { old: true }, "sales", "computation", "limited")
    f.shiftDays(0)
    const runs = await threeRuns()
    const rows = (await f.list({ kind: "new", playbook: "sales" })).rows.filter((row: any) => row.run_id !== null)
    expect(rows.map((row: any) => row.seen)).toEqual([false, false, false, true])
    expect((await f.list()).counts.new).toBe(3)
    expect((await f.list()).through).toBeNull()
    expect(runs.map((row: any) => row.seen)).toEqual([false, false, false, true])
  })

  it("a row is seen by its maker from the start", async () => {
    const runs = await threeRuns()
    expect(runs.every((row: any) => row.by === "key:limited")).toBe(true)
    const own = await f.list({ kind: "new", playbook: "sales" }, "limited")
    expect(own.rows.filter((row: any) => row.run_id !== null).map((row: any) => row.seen)).toEqual([true, true, true])
    const unseen = async (key: string, playbook?: string) =>
      (await f.list({ kind: "new", limit: 200, ...(playbook === undefined ? {} : { playbook }) }, key)).rows.filter(
        (row: any) => !row.seen
      ).length
    expect(own.counts.new).toBe((await unseen("limited", "sales")) + (await unseen("limited", "finance")))
    expect((await f.list()).counts.new).toBe(await unseen("full"))
  })

  it("items marks rows seen, for the caller alone, and answers counts and through after it", async () => {
    const runs = await threeRuns()
    const answer = await f.mark({ items: [{ address: runs[1].address, at: runs[1].at }] })
    expect(answer).toEqual({ counts: { needs_you: 0, broken: 0, new: 2, comments: 0 }, through: null })
    const rows = (await f.list({ kind: "new", playbook: "sales" })).rows.filter((row: any) => row.run_id !== null)
    expect(rows.map((row: any) => row.seen)).toEqual([false, true, false])
    const reader = await f.list({ kind: "new", playbook: "sales" }, "reader")
    expect(reader.rows.filter((row: any) => row.run_id !== null).map((row: any) => row.seen)).toEqual([
      false,
      false,
      false
    ])
  })

  it("through marks everything at or before it seen, and never moves back", async () => {
    const runs = await threeRuns()
    const answer = await f.mark({ through: runs[1].cursor })
    expect(answer.counts.new).toBe(1)
    expect(answer.through).toEqual({ cursor: runs[1].cursor, seen_at: answer.through.seen_at })
    const back = await f.mark({ through: runs[2].cursor })
    expect(back.through).toEqual(answer.through)
    expect(back.counts.new).toBe(1)
    expect((await f.list()).through).toEqual(answer.through)
    const on = await f.mark({ through: runs[0].cursor })
    expect([on.through.cursor, on.counts.new]).toEqual([runs[0].cursor, 0])
  })

  it("records every request, repeats included, on the caller's own stream", async () => {
    const runs = await threeRuns()
    const item = { address: runs[0].address, at: runs[0].at }
    await f.mark({ items: [item] })
    await f.mark({ items: [item] })
    const facts = await seenFacts()
    expect(facts).toHaveLength(2)
    expect(facts.map((fact) => fact.metadata.stream)).toEqual([
      "org/acme/callers/key:build-bot/activity",
      "org/acme/callers/key:build-bot/activity"
    ])
    expect(facts[0].data).toEqual({ items: [item], through: null })
  })

  it("an item the activity holds no seen row for is accepted and marks nothing", async () => {
    await f.save("interaction", "ask", askDocument)
    const asked = await f.run("ask", { to: "dana@example.com", order: 1 }, "finance", "interaction")
    const runId = (asked as any).right.run_id
    const runs = await threeRuns()
    const answer = await f.mark({
      items: [
        { address: `finance/${runId}`, at: new Date().toISOString() },
        { address: runs[0].address, at: new Date(Date.parse(runs[0].at) - 1).toISOString() },
        { address: "nowhere/runs/0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a", at: runs[0].at }
      ]
    })
    expect(answer.counts.new).toBe((await f.list()).counts.new)
    expect((await f.list({ kind: "new", playbook: "sales" })).rows.filter((row: any) => !row.seen)).toHaveLength(3)
    expect(await seenFacts()).toHaveLength(1)
  })

  it("a mark made before a comment was reopened marks nothing of the reopened row", async () => {
    const made = await f.ok(
      "make_comment",
      { address: "playbooks/sales", text: "Hm" },
      { playbook: "sales", key: "reader" }
    )
    const [row] = (await f.list({ kind: "comment" })).rows
    await f.mark({ items: [{ address: row.address, at: row.at }] })
    expect((await f.list()).counts.comments).toBe(0)
    await f.ok("resolve_comment", { id: made.id, how: "acted" }, { playbook: "sales" })
    await f.ok("reopen_comment", { id: made.id }, { playbook: "sales", key: "limited" })
    const [reopened] = (await f.list({ kind: "comment" })).rows
    expect(reopened.seen).toBe(false)
    expect((await f.list()).counts.comments).toBe(1)
  })

  it("keeps the marks of the 1,000 items newest after through", async () => {
    const runs = await threeRuns()
    const newest = runs[0]
    const filler = Array.from({ length: 1_000 }, (_, index) => ({
      address: `sales/runs/0199a3c4-7d2e-7c1a-9b3f-${String(index).padStart(12, "0")}`,
      at: new Date(Date.parse(newest.at) + 1 + index).toISOString()
    }))
    await f.mark({ items: [{ address: newest.address, at: newest.at }] })
    expect((await f.list()).counts.new).toBe(2)
    for (let from = 0; from < filler.length; from += 200) await f.mark({ items: filler.slice(from, from + 200) })
    expect((await f.list()).counts.new).toBe(3)
  })

  it("a request that waits on an address is counted for no caller", async () => {
    await f.save("interaction", "ask", askDocument)
    await f.run("ask", { to: "dana@example.com", order: 1 }, "finance", "interaction")
    expect((await f.list()).counts.needs_you).toBe(0)
  })
})

describe("marking refusals", () => {
  const refusedAt = async (input: unknown, pointer: string, key = "full") => {
    const refused = await f.refused("mark_activity_seen", input, { key })
    expect([refused.reason, refused.errors?.[0].pointer]).toEqual(["invalid_input", pointer])
    return refused
  }

  it("neither items nor through, or an empty items alone, at /items", async () => {
    expect((await refusedAt({}, "/items")).detail).toContain("give the rows seen, or through, or both")
    await refusedAt({ items: [] }, "/items")
  })

  it("more than 200 items at /items", async () => {
    const items = Array.from({ length: 201 }, () => ({
      address: "org/comments/0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a",
      at: "2026-11-01T17:02:41.512Z"
    }))
    expect((await refusedAt({ items }, "/items")).detail).toContain("at most 200")
  })

  it("an item of no form, or whose at is not a time, at the item", async () => {
    const good = { address: "finance/runs/0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a", at: "2026-11-01T17:02:41.512Z" }
    expect(
      (await refusedAt({ items: [good, good, { ...good, address: "finance/elsewhere" }] }, "/items/2")).detail
    ).toContain("is not of a form of the activity's rows")
    expect((await refusedAt({ items: [{ ...good, at: "yesterday" }] }, "/items/0")).detail).toContain(
      "a time in ISO 8601"
    )
    expect(await seenFacts()).toEqual([])
  })

  it("a through that does not decode, or of another org, at /through", async () => {
    await refusedAt({ through: "zzz" }, "/through")
    const elsewhere = await f.list({}, "other-org")
    expect(elsewhere.rows).toEqual([])
    await f.ok("create_playbook", { playbook: "finance", name: "F" }, { key: "other-org" })
    await refusedAt({ through: (await f.list({}, "other-org")).rows[0].cursor }, "/through")
  })

  it("an item of a playbook the caller may not access, or an organization's comment for a caller of some, is forbidden", async () => {
    const archive = await f.refused(
      "mark_activity_seen",
      { items: [{ address: "archive/runs/0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a", at: "2026-11-01T17:02:41.512Z" }] },
      { key: "limited" }
    )
    expect([archive.reason, archive.detail]).toEqual([
      "forbidden",
      "This credential may not mark items of the playbook archive."
    ])
    const org = await f.refused(
      "mark_activity_seen",
      { items: [{ address: "org/comments/0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a", at: "2026-11-01T17:02:41.512Z" }] },
      { key: "limited" }
    )
    expect([org.reason, org.detail]).toEqual([
      "forbidden",
      "The caller may not mark the organization's comments, which only a caller who may access every playbook sees"
    ])
    expect(await seenFacts()).toEqual([])
  })
})
