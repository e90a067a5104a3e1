import { Views } from "@runledger/core"
import { Effect } from "effect"
import { afterEach, beforeEach, expect, it } from "vitest"
import { type ActivityFixture, askDocument, makeActivityFixture } from "./activityFixture.js"

let f: ActivityFixture
beforeEach(async () => {
  f = await makeActivityFixture()
})
afterEach(() => f.runtime.dispose())

it("drops the views, rebuilds them from the ledger, and every read answers the same", async () => {
  await f.save("computation", "echo", "Echoes")
  await f.save("interaction", "ask", askDocument)
  await f.run("echo", { a: 1 }, "finance", "computation", "limited")
  await f.run("echo", { refuse: true })
  await f.run("ask", { to: "person:user_1", order: 2 }, "finance", "interaction")
  const comment = await f.ok("make_comment", { address: "playbooks/sales", text: "Hi" }, { playbook: "sales" })
  await f.ok("resolve_comment", { id: comment.id, how: "dismissed" }, { playbook: "sales" })
  await f.ok("reopen_comment", { id: comment.id }, { playbook: "sales", key: "limited" })
  await f.ok("make_comment_in_org", { address: "org", text: "Org" })
  await f.ok("update_playbook", { playbook: "archive", description: "Old" })
  const first = await f.list()
  await f.mark({ items: [{ address: first.rows[0].address, at: first.rows[0].at }], through: first.rows[4].cursor })
  const reads = () =>
    Promise.all([
      f.list({ limit: 200 }),
      f.list({ limit: 3, kind: "new,comment" }),
      f.list({ playbook: "finance" }, "limited"),
      f.list({}, "reader")
    ])
  const before = await reads()
  expect(before[0].rows.length).toBeGreaterThan(8)
  expect(before[0].through).not.toBeNull()
  await f.runtime.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
  expect(await reads()).toEqual(before)
})
