import { problemDocument } from "@runledger/core"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { makeRuntime } from "../runtimeFixture.js"
import { appendFact, okOn, refusedOn } from "./changesFixture.js"

let fixture: ReturnType<typeof makeRuntime>
const ok = okOn(() => fixture)
const refused = refusedOn(() => fixture)
const inFinance = { playbook: "finance" }
const playbookChanges = (input: unknown, key = "full") => ok(key, "list_playbook_changes", input, inFinance)
const orgChanges = (input: unknown, key = "full") => ok(key, "list_org_changes", input)
const definition = (name: string, type = "computation") =>
  ok("full", "create_definition", { type, name, source: name, diagram: "none" }, inFinance)

beforeEach(async () => {
  fixture = makeRuntime()
  await ok("full", "create_playbook", { playbook: "finance", name: "Finance" })
  await definition("echo")
  await definition("ask", "interaction")
})
afterEach(() => fixture.runtime.dispose())

describe("list_playbook_changes", () => {
  it("without since answers at once with the cursor of now and no changes", async () => {
    const started = Date.now()
    const now = await playbookChanges({})
    expect(Date.now() - started).toBeLessThan(1000)
    expect(now).toEqual({ cursor: expect.any(String), changes: [], more: false })
    const again = await playbookChanges({ since: now.cursor, wait: 0 })
    expect(again).toEqual({ cursor: now.cursor, changes: [], more: false })
  })

  it("answers at once what changed after the cursor, each resource once, in the ledger's order", async () => {
    const { cursor } = await playbookChanges({})
    await ok(
      "full",
      "update_definition",
      { type: "computation", name: "echo", source: "v2", diagram: "none" },
      inFinance
    )
    const first = await ok("full", "run_definition", { type: "computation", name: "echo", input: 1 }, inFinance)
    const asked = await ok("full", "run_definition", { type: "interaction", name: "ask", input: {} }, inFinance)
    await ok("full", "pause_definition", { type: "computation", name: "echo" }, inFinance)
    const answer = await playbookChanges({ since: cursor })
    expect(answer.changes).toEqual([
      { kind: "definition", type: "computation", name: "echo" },
      { kind: "run", run_id: first.run_id },
      { kind: "run", run_id: asked.run_id },
      { kind: "interaction", run_id: asked.run_id }
    ])
    expect(answer.more).toBe(false)
    expect(answer.cursor).not.toBe(cursor)
    expect(await playbookChanges({ since: answer.cursor, wait: 0 })).toEqual({
      cursor: answer.cursor,
      changes: [],
      more: false
    })
  })

  it("names the playbook's page saved or removed, its comments and its events, and nothing of other playbooks", async () => {
    await ok("full", "create_playbook", { playbook: "sales", name: "Sales" })
    const { cursor } = await playbookChanges({})
    await ok("full", "update_playbook", { playbook: "finance", page: "title: Finance\n" })
    await ok("full", "update_playbook", { playbook: "sales", page: "title: Sales\n" })
    await ok(
      "full",
      "create_definition",
      { type: "computation", name: "elsewhere", source: "x", diagram: "none" },
      {
        playbook: "sales"
      }
    )
    await appendFact(fixture, "playbook/acme/finance/comments/c-1", "comment_made", { text: "Look" })
    await appendFact(fixture, "playbook/acme/finance/comments/c-1", "comment_resolved", { how: "acted" })
    const published = await appendFact(fixture, "playbook/acme/finance/events", "event_published", { event_id: "e" })
    await appendFact(fixture, "playbook/acme/finance/events", "something_else", {})
    const answer = await playbookChanges({ since: cursor })
    expect(answer.changes).toEqual([
      { kind: "playbook" },
      { kind: "comment", comment_id: "c-1" },
      { kind: "event", event_id: published.facts[0].id }
    ])
  })

  it("lists at most 200 resources and says more; the next answer goes on from its cursor", async () => {
    const { cursor } = await playbookChanges({})
    for (let index = 0; index < 203; index++)
      await appendFact(fixture, `playbook/acme/finance/runs/run-${index}`, "run_note", {})
    const first = await playbookChanges({ since: cursor })
    expect(first.changes).toHaveLength(200)
    expect(first.more).toBe(true)
    expect(first.changes[199]).toEqual({ kind: "run", run_id: "run-199" })
    const rest = await playbookChanges({ since: first.cursor })
    expect(rest.changes.map((change: { run_id: string }) => change.run_id)).toEqual(["run-200", "run-201", "run-202"])
    expect(rest.more).toBe(false)
  })

  it("refuses a wait outside 0 to 25 seconds at /wait", async () => {
    for (const wait of [26, -1, 25.5]) {
      const rejection = await refused("full", "list_playbook_changes", { wait }, inFinance)
      expect([rejection.reason, rejection.errors?.[0].pointer]).toEqual(["invalid_input", "/wait"])
    }
  })

  it("refuses a cursor the ledger does not hold as cursor_not_held: another playbook's, the org's, another database's, or no cursor", async () => {
    await ok("full", "create_playbook", { playbook: "sales", name: "Sales" })
    const sales = await ok("full", "list_playbook_changes", {}, { playbook: "sales" })
    const org = await orgChanges({})
    await ok("full", "run_definition", { type: "computation", name: "echo", input: 1 }, inFinance)
    const other = makeRuntime()
    await other.call("full", "create_playbook", { playbook: "finance", name: "Finance" })
    await other.call(
      "full",
      "create_definition",
      { type: "computation", name: "echo", source: "x", diagram: "none" },
      inFinance
    )
    await other.call("full", "run_definition", { type: "computation", name: "echo", input: 2 }, inFinance)
    const foreign = await okOn(() => other)("full", "list_playbook_changes", {}, inFinance)
    await other.runtime.dispose()
    for (const since of [sales.cursor, org.cursor, foreign.cursor, "not-a-cursor", "e30"]) {
      const rejection = await refused("full", "list_playbook_changes", { since, wait: 0 }, inFinance)
      expect([rejection.reason, rejection.kind, rejection.errors?.[0].pointer]).toEqual([
        "invalid_input",
        "cursor_not_held",
        "/since"
      ])
      expect(problemDocument(rejection)).toMatchObject({
        type: "https://on.auto/problems/cursor_not_held",
        status: 422,
        reason: "invalid_input"
      })
    }
  })

  it("holds the request until a run started by another request ends it with the run's id", async () => {
    const { cursor } = await playbookChanges({})
    const held = playbookChanges({ since: cursor, wait: 10 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = performance.now()
    const run = await ok("full", "run_definition", { type: "interaction", name: "ask", input: {} }, inFinance)
    const answer = await held
    const delay = performance.now() - started
    console.log(`list_playbook_changes: hold released ${delay.toFixed(1)} ms after the run was started`)
    expect(answer.changes).toContainEqual({ kind: "run", run_id: run.run_id })
    expect(delay).toBeLessThan(2000)
  })

  it("answers no changes with the cursor it was given when wait passes", async () => {
    const { cursor } = await playbookChanges({})
    const started = performance.now()
    const answer = await playbookChanges({ since: cursor, wait: 1 })
    expect(performance.now() - started).toBeGreaterThanOrEqual(900)
    expect(answer).toEqual({ cursor, changes: [], more: false })
  })
})

describe("list_org_changes", () => {
  it("names the org's playbooks and its own comments, each once", async () => {
    const { cursor } = await orgChanges({})
    await ok("full", "create_playbook", { playbook: "sales", name: "Sales" })
    await ok("full", "update_playbook", { playbook: "sales", name: "Sales team" })
    await ok("full", "retire_playbook", { playbook: "finance" })
    await appendFact(fixture, "org/acme/comments/c-9", "comment_made", { text: "Hello" })
    await ok("full", "run_definition", { type: "computation", name: "echo", input: 1 }, { playbook: "sales" }).catch(
      () => undefined
    )
    const answer = await orgChanges({ since: cursor })
    expect(answer.changes).toEqual([
      { kind: "playbook", playbook: "sales" },
      { kind: "playbook", playbook: "finance" },
      { kind: "comment", comment_id: "c-9" }
    ])
  })

  it("names to a key limited to some playbooks only theirs, and what it may not read ends no held request", async () => {
    const { cursor } = await orgChanges({}, "limited")
    const held = orgChanges({ since: cursor, wait: 1 }, "limited")
    await ok("full", "create_playbook", { playbook: "hidden", name: "Hidden" })
    expect(await held).toEqual({ cursor, changes: [], more: false })
    await ok("full", "create_playbook", { playbook: "sales", name: "Sales" })
    await appendFact(fixture, "org/acme/comments/c-1", "comment_made", { text: "For all" })
    const answer = await orgChanges({ since: cursor }, "limited")
    expect(answer.changes).toEqual([
      { kind: "playbook", playbook: "sales" },
      { kind: "comment", comment_id: "c-1" }
    ])
  })

  it("refuses a playbook route's cursor as cursor_not_held, and a key of another org as forbidden", async () => {
    const { cursor } = await playbookChanges({})
    expect((await refused("full", "list_org_changes", { since: cursor })).kind).toBe("cursor_not_held")
    expect((await refused("other-org", "list_org_changes", {}, { org: "acme" })).reason).toBe("forbidden")
  })
})
