import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { comparePositions, positionOf } from "../../src/activity/ActivityPosition.js"
import { type ActivityFixture, makeActivityFixture } from "./activityFixture.js"

let f: ActivityFixture
beforeEach(async () => {
  f = await makeActivityFixture()
  await f.save("computation", "echo", "Echoes")
  await f.save("computation", "echo", "Echoes", "sales")
  for (let index = 0; index < 5; index++) await f.run("echo", { index })
  await f.run("echo", { refuse: true }, "sales")
  await f.ok("make_comment", { address: "playbooks/sales", text: "Hi" }, { playbook: "sales", key: "reader" })
})
afterEach(() => f.runtime.dispose())

const addresses = (page: { rows: Array<{ address: string }> }) => page.rows.map((row) => row.address)

describe("reading the activity", () => {
  it("lists every kind newest first by at, each row once across pages, with the same counts on every page", async () => {
    const whole = await f.list({ limit: 200 })
    const ats = whole.rows.map((row: any) => Date.parse(row.at))
    expect(ats).toEqual([...ats].sort((a, b) => b - a))
    expect(new Set(whole.rows.map((row: any) => row.kind))).toEqual(new Set(["new", "broken", "comment"]))
    const seen: Array<string> = []
    let cursor: string | undefined
    for (;;) {
      const page = await f.list({ limit: 3, ...(cursor === undefined ? {} : { cursor }) })
      expect(page.counts).toEqual(whole.counts)
      seen.push(...addresses(page))
      expect(page.has_more).toBe(page.next_cursor !== null)
      if (page.next_cursor === null) break
      expect(page.rows).toHaveLength(3)
      cursor = page.next_cursor
    }
    expect(seen).toEqual(addresses(whole))
    expect((await f.list()).rows).toHaveLength(Math.min(50, whole.rows.length))
  })

  it("kind keeps the rows of the kinds named; counts stay as they are", async () => {
    const whole = await f.list()
    const page = await f.list({ kind: "broken,comment" })
    // The comment and the broken run can share a millisecond; rows of one time are ordered by address.
    expect(page.rows.map((row: any) => row.kind).sort()).toEqual(["broken", "comment"])
    const places = page.rows.map(positionOf)
    expect(places).toEqual([...places].sort((a, b) => comparePositions(b, a)))
    expect(page.counts).toEqual(whole.counts)
    expect(whole.counts).toMatchObject({ broken: 1, comments: 1, needs_you: 0 })
  })

  it("playbook keeps one playbook's rows; a retired playbook has none", async () => {
    const page = await f.list({ playbook: "sales" })
    expect(page.rows.every((row: any) => row.playbook === "sales")).toBe(true)
    expect(page.rows.length).toBeGreaterThan(2)
    await f.ok("retire_playbook", { playbook: "sales" })
    expect((await f.list({ playbook: "sales" })).rows).toEqual([])
    expect((await f.list()).rows.some((row: any) => row.playbook === "sales")).toBe(false)
    expect((await f.list()).counts).toMatchObject({ broken: 0, comments: 0 })
  })

  it("mine keeps the caller's new and comment rows and leaves the other kinds", async () => {
    const mine = await f.list({ mine: true }, "reader")
    expect(mine.rows.map((row: any) => row.kind).sort()).toEqual(["broken", "comment"])
    expect((await f.list({ mine: true })).rows.some((row: any) => row.kind === "comment")).toBe(false)
  })

  it("since keeps the rows newer than the row it names", async () => {
    const whole = await f.list()
    const page = await f.list({ since: whole.rows[3].cursor })
    expect(addresses(page)).toEqual(addresses(whole).slice(0, 3))
  })

  it("refuses a kind, a limit and cursors that do not fit, at their fields", async () => {
    const kind = await f.refused("list_activity", { kind: "new,later" })
    expect([kind.reason, kind.errors?.[0].pointer]).toEqual(["invalid_input", "/kind"])
    expect(kind.errors?.[0].detail).toContain("must be needs_you, broken, new or comment")
    for (const limit of [0, 201, 2.5]) {
      const refused = await f.refused("list_activity", { limit })
      expect([refused.reason, refused.errors?.[0].pointer]).toEqual(["invalid_input", "/limit"])
    }
    for (const field of ["since", "cursor"]) {
      const garbage = await f.refused("list_activity", { [field]: "not-a-cursor" })
      expect([garbage.reason, garbage.errors?.[0].pointer]).toEqual(["invalid_input", `/${field}`])
      expect(garbage.errors?.[0].detail).toContain("is not a cursor of this organization's activity")
    }
  })

  it("refuses a cursor another org's activity gave", async () => {
    await f.ok("create_playbook", { playbook: "finance", name: "Finance" }, { key: "other-org" })
    const elsewhere = await f.list({}, "other-org")
    const refused = await f.refused("list_activity", { cursor: elsewhere.rows[0].cursor })
    expect(refused.errors?.[0].pointer).toBe("/cursor")
    expect(addresses(elsewhere).every((address) => address.startsWith("playbooks/finance/"))).toBe(true)
  })

  it("a playbook the org does not have is not_found; one the caller may not access is forbidden", async () => {
    expect((await f.refused("list_activity", { playbook: "nowhere" })).reason).toBe("not_found")
    const other = await f.refused("list_activity", { playbook: "archive" }, { key: "limited" })
    expect([other.reason, other.detail]).toEqual(["forbidden", "This credential may not act on the playbook archive."])
  })

  it("a caller of some playbooks names one of them; reads it with counts over all of theirs", async () => {
    const none = await f.refused("list_activity", {}, { key: "limited" })
    expect(none.reason).toBe("forbidden")
    expect(none.detail).toContain("name one of them in playbook")
    const page = await f.list({ playbook: "finance" }, "limited")
    expect(page.rows.every((row: any) => row.playbook === "finance")).toBe(true)
    expect(page.counts).toMatchObject({ broken: 1, comments: 1 })
  })
})
