import { Views } from "@runledger/core"
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { type CommentsFixture, makeCommentsFixture } from "./commentsFixture.js"

let f: CommentsFixture
beforeEach(async () => {
  f = await makeCommentsFixture()
})
afterEach(() => f.runtime.dispose())

const run = "019a4012-7c3e-7d10-9b2a-4e6f8a1c2d3e"
const otherRun = "019a4012-7c3e-7d10-9b2a-4e6f8a1c2d3f"
const event = "019a4013-0000-7000-8000-000000000001"
const connection = "019a3f10-2b4c-7d5e-8f60-718293a4b5c6"
const definition = "finance/definitions/workflow/close-the-week"

/** Every address the under rules are checked against, one comment each. */
const addresses = [
  "playbooks/finance",
  "playbooks/finance/parts/description",
  `${definition}/4`,
  `${definition}/4/parts/diagram`,
  `${definition}/4/steps/do/1/review`,
  `${definition}/4/steps/do/1/review/try/0/assess`,
  `${definition}/3`,
  `${definition}/3/steps/do/0/fetch`,
  "finance/definitions/workflow/close-the-month/4",
  "finance/definitions/computation/close-the-week/4",
  `finance/runs/${run}`,
  `finance/runs/${run}/parts/total`,
  `finance/runs/${run}/events/${event}`,
  `finance/runs/${run}/result/2`,
  `finance/runs/${otherRun}`,
  `finance/${run}`
]
const orgAddresses = [
  "org",
  "org/parts/name",
  `org/connections/${connection}`,
  `org/connections/${connection}/parts/status`,
  "org/members/person:user_7kLm2",
  "org/settings/billing"
]

/** Waits for the clock to move on, so comments made one after another differ in `at`. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3))

/** Makes one comment on each address, oldest first, answering their ids by address. */
const makeEach = async (list: ReadonlyArray<string>, playbook: string | null = "finance") => {
  const ids = new Map<string, string>()
  for (const address of list) {
    ids.set(address, (await f.make({ address, text: address }, playbook)).id)
    await tick()
  }
  return ids
}

/** Lists comments and answers the page. */
const list = async (input: Record<string, unknown>, playbook: string | null = "finance", key = "full") =>
  (await f.answer(f.call(playbook === null ? "list_comments_in_org" : "list_comments", input, playbook, key)))
    .output as any
const listed = async (input: Record<string, unknown>, playbook: string | null = "finance") =>
  (await list(input, playbook)).comments.map((comment: any) => comment.address).sort()

describe("list_comments", () => {
  it("lists the open comments of the playbook, newest first, with has_more and next_cursor", async () => {
    await makeEach(addresses)
    await f.make({ address: "playbooks/sales", text: "x" }, "sales")
    await f.make({ address: "org", text: "x" }, null)
    const page = await list({})
    expect(page.comments.map((comment: any) => comment.address)).toEqual([...addresses].reverse())
    expect(page.has_more).toBe(false)
    expect(page.next_cursor).toBeNull()
    expect(page.comments[0]).toHaveProperty("studio")
    expect(page.comments[0].anchor).toBeNull()
  })

  it("lists the organization's own comments on its route, and none of its playbooks'", async () => {
    await makeEach(orgAddresses, null)
    await f.make({ address: "playbooks/finance", text: "x" })
    expect((await list({}, null)).comments.map((comment: any) => comment.address)).toEqual([...orgAddresses].reverse())
  })

  it("keeps the open comments unless open is false, which keeps the resolved ones; a reopened one is open", async () => {
    const ids = await makeEach(["playbooks/finance", `finance/runs/${run}`, `finance/${run}`])
    await f.answer(f.call("resolve_comment", { id: ids.get("playbooks/finance"), how: "acted" }))
    await f.answer(f.call("resolve_comment", { id: ids.get(`finance/${run}`), how: "dismissed" }))
    expect(await listed({})).toEqual([`finance/runs/${run}`])
    expect(await listed({ open: true })).toEqual([`finance/runs/${run}`])
    const resolved = await list({ open: false })
    expect(resolved.comments.map((comment: any) => [comment.address, comment.open, comment.resolved_how])).toEqual([
      [`finance/${run}`, false, "dismissed"],
      ["playbooks/finance", false, "acted"]
    ])
    await f.answer(f.call("reopen_comment", { id: ids.get("playbooks/finance") }))
    expect((await list({})).comments.map((comment: any) => comment.address)).toEqual([
      `finance/runs/${run}`,
      "playbooks/finance"
    ])
    expect(await listed({ open: false })).toEqual([`finance/${run}`])
  })

  it("keeps the comments on an address alone without under", async () => {
    await makeEach(addresses)
    for (const address of addresses) expect(await listed({ address }), address).toEqual([address])
    expect(await listed({ address: `finance/runs/${run}`, under: false })).toEqual([`finance/runs/${run}`])
    expect(await listed({ address: `finance/runs/${run.toUpperCase()}` })).toEqual([`finance/runs/${run}`])
  })

  it("keeps with under what is under the address, by the rules of each thing", async () => {
    await makeEach(addresses)
    const under = (address: string) => listed({ address, under: true })
    expect(await under(`finance/runs/${run}`)).toEqual(
      [
        `finance/runs/${run}`,
        `finance/runs/${run}/parts/total`,
        `finance/runs/${run}/events/${event}`,
        `finance/runs/${run}/result/2`
      ].sort()
    )
    expect(await under(`${definition}/4`)).toEqual(
      [
        `${definition}/4`,
        `${definition}/4/parts/diagram`,
        `${definition}/4/steps/do/1/review`,
        `${definition}/4/steps/do/1/review/try/0/assess`
      ].sort()
    )
    expect(await under(definition)).toEqual(
      [
        `${definition}/4`,
        `${definition}/4/parts/diagram`,
        `${definition}/4/steps/do/1/review`,
        `${definition}/4/steps/do/1/review/try/0/assess`,
        `${definition}/3`,
        `${definition}/3/steps/do/0/fetch`
      ].sort()
    )
    expect(await under("playbooks/finance")).toEqual(["playbooks/finance", "playbooks/finance/parts/description"])
    for (const alone of [
      `${definition}/4/steps/do/1/review`,
      `finance/runs/${run}/events/${event}`,
      `finance/runs/${run}/result/2`,
      `finance/${run}`,
      `finance/runs/${run}/parts/total`,
      "playbooks/finance/parts/description"
    ])
      expect(await under(alone), alone).toEqual([alone])
  })

  it("keeps with under on the organization's things what is under each", async () => {
    await makeEach(orgAddresses, null)
    const under = (address: string) => listed({ address, under: true }, null)
    expect(await under("org")).toEqual(["org", "org/parts/name"])
    expect(await under(`org/connections/${connection}`)).toEqual(
      [`org/connections/${connection}`, `org/connections/${connection}/parts/status`].sort()
    )
    expect(await under("org/members/person:user_7kLm2")).toEqual(["org/members/person:user_7kLm2"])
    expect(await under("org/settings/payments")).toEqual([])
  })

  it("refuses under without address at /under, a definition without its version without under, and a foreign address", async () => {
    expect((await f.refusal(f.call("list_comments", { under: true }))).errors).toEqual([
      { pointer: "/under", detail: "under: keeps what is under an address; give the address too, or leave under out." }
    ])
    expect((await list({ under: false })).comments).toEqual([])
    expect((await f.refusal(f.call("list_comments", { address: definition }))).errors?.[0].pointer).toBe("/address")
    for (const address of [`sales/runs/${run}`, "org", "nowhere", "x".repeat(513)])
      expect((await f.refusal(f.call("list_comments", { address, under: true }))).errors?.[0].pointer, address).toBe(
        "/address"
      )
    expect(
      (await f.refusal(f.call("list_comments_in_org", { address: "playbooks/finance" }, null))).errors?.[0]
    ).toEqual({
      pointer: "/address",
      detail: "address: is of the playbook finance, whose comments are that playbook's; use its comments."
    })
  })

  it("takes a limit from 1 to 200, 50 when left out, and refuses any other at /limit", async () => {
    for (let index = 0; index < 51; index++) await f.make({ address: "playbooks/finance", text: `n${index}` })
    const first = await list({})
    expect(first.comments).toHaveLength(50)
    expect(first.has_more).toBe(true)
    expect((await list({ limit: 200 })).comments).toHaveLength(51)
    expect((await list({ limit: 1 })).comments).toHaveLength(1)
    for (const limit of [0, 201, 1.5, -1, "10"])
      expect((await f.refusal(f.call("list_comments", { limit }))).errors, String(limit)).toEqual([
        {
          pointer: "/limit",
          detail: "limit: must be a whole number from 1 to 200"
        }
      ])
  })

  it("pages on from next_cursor until it is null, each comment once, with a filter too", async () => {
    const ids = await makeEach(addresses)
    const read = async (input: Record<string, unknown>) => {
      const seen: Array<string> = []
      let cursor: string | undefined
      for (;;) {
        const page = await list({ ...input, limit: 3, ...(cursor === undefined ? {} : { cursor }) })
        seen.push(...page.comments.map((comment: any) => comment.address))
        expect(page.comments.length === 3 || !page.has_more).toBe(true)
        if (page.next_cursor === null) {
          expect(page.has_more).toBe(false)
          return seen
        }
        cursor = page.next_cursor
      }
    }
    expect(await read({})).toEqual([...addresses].reverse())
    const underDefinition = addresses.filter((address) => address.startsWith(`${definition}/`)).reverse()
    expect(await read({ address: definition, under: true })).toEqual(underDefinition)
    for (const address of addresses.slice(0, 6))
      await f.answer(f.call("resolve_comment", { id: ids.get(address), how: "acted" }))
    expect(await read({ open: false })).toEqual(addresses.slice(0, 6).reverse())
    expect(await read({})).toEqual(addresses.slice(6).reverse())
  })

  it("refuses at /cursor a cursor of another playbook, of the organization, of other filters, or one that does not decode", async () => {
    for (const address of ["playbooks/finance", "playbooks/finance/parts/a"]) await f.make({ address, text: "x" })
    for (const address of ["playbooks/sales", "playbooks/sales/parts/a"]) await f.make({ address, text: "x" }, "sales")
    for (const address of ["org", "org/parts/a"]) await f.make({ address, text: "x" }, null)
    const cursorOf = async (input: Record<string, unknown>, playbook: string | null) =>
      (await list({ ...input, limit: 1 }, playbook)).next_cursor as string
    const refused = async (cursor: string, input: Record<string, unknown> = {}, playbook: string | null = "finance") =>
      expect(
        (
          await f.refusal(
            f.call(playbook === null ? "list_comments_in_org" : "list_comments", { ...input, cursor }, playbook)
          )
        ).errors
      ).toEqual([{ pointer: "/cursor", detail: "cursor: is not a cursor this listing gave; ask again without it." }])
    await refused(await cursorOf({}, "sales"))
    await refused(await cursorOf({}, null))
    await refused(await cursorOf({}, "finance"), {}, null)
    await refused(await cursorOf({}, "finance"), { open: false })
    await refused(await cursorOf({ address: "playbooks/finance", under: true }, "finance"))
    await refused("not a cursor")
    await refused(Buffer.from(JSON.stringify({ s: "x", p: 1 })).toString("base64url"))
    const own = await cursorOf({}, "finance")
    expect((await list({ cursor: own })).comments).toHaveLength(1)
  })

  it("lets any key that may read list a playbook's comments, and any key of the org the organization's", async () => {
    await f.make({ address: "org", text: "x" }, null)
    await f.make({ address: "playbooks/archive", text: "x" }, "archive")
    expect((await list({}, null, "limited")).comments).toHaveLength(1)
    expect((await list({}, "finance", "reader")).comments).toHaveLength(0)
    expect(await f.refusal(f.call("list_comments", {}, "archive", "limited"))).toMatchObject({ reason: "forbidden" })
  })

  it("answers every list the same after the views are rebuilt from the ledger", async () => {
    const ids = await makeEach(addresses)
    const orgIds = await makeEach(orgAddresses, null)
    await f.make({ address: "playbooks/sales", text: "x", anchor: { x: 0.25, y: 0.75 } }, "sales")
    for (const address of addresses.slice(0, 5))
      await f.answer(f.call("resolve_comment", { id: ids.get(address), how: "acted" }))
    await f.answer(f.call("reopen_comment", { id: ids.get(addresses[1]) }))
    await f.answer(f.call("resolve_comment_in_org", { id: orgIds.get("org"), how: "dismissed" }, null))
    const reads: ReadonlyArray<readonly [Record<string, unknown>, string | null]> = [
      [{}, "finance"],
      [{ open: false }, "finance"],
      [{ limit: 2 }, "finance"],
      [{ address: definition, under: true }, "finance"],
      [{ address: definition, under: true, open: false }, "finance"],
      [{ address: `finance/runs/${run}`, under: true }, "finance"],
      [{}, "sales"],
      [{}, null],
      [{ open: false }, null],
      [{ address: "org", under: true, open: false }, null]
    ]
    const answers = async () => Promise.all(reads.map(([input, playbook]) => list(input, playbook)))
    const before = await answers()
    expect(before.map((page) => page.comments.length)).toEqual([12, 4, 2, 3, 3, 4, 1, 5, 1, 1])
    await f.runtime.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
    expect(await answers()).toEqual(before)
  })
})
