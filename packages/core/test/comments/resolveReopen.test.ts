import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { type CommentsFixture, makeCommentsFixture } from "./commentsFixture.js"

let f: CommentsFixture
beforeEach(async () => {
  f = await makeCommentsFixture()
})
afterEach(() => f.runtime.dispose())

const address = "finance/definitions/workflow/close-the-week/4/steps/do/1/review"
const resolve = (id: string, how: unknown, playbook: string | null = "finance", key = "full") =>
  f.call(playbook === null ? "resolve_comment_in_org" : "resolve_comment", { id, how }, playbook, key)
const reopen = (id: string, playbook: string | null = "finance", key = "full") =>
  f.call(playbook === null ? "reopen_comment_in_org" : "reopen_comment", { id }, playbook, key)
const types = async () => (await f.commentFacts()).map((fact) => fact.type)

describe("resolve_comment", () => {
  it("records comment_resolved with how and answers the comment closed, with its Studio link", async () => {
    const made = await f.make({ address, text: "Flag it", anchor: { x: 0.5, y: 0.5 } })
    const answer = await f.answer(resolve(made.id, "acted", "finance", "reader"))
    expect(answer.status).toBe(200)
    const resolved = answer.output as any
    const { resolved_at: _open, ...asMade } = made
    expect(resolved).toMatchObject({
      ...asMade,
      open: false,
      resolved_by: "key:reader",
      resolved_how: "acted",
      reopened_at: null,
      reopened_by: null
    })
    expect(new Date(resolved.resolved_at).toISOString()).toBe(resolved.resolved_at)
    const [, fact] = await f.commentFacts()
    expect(fact).toMatchObject({
      type: "comment_resolved",
      data: { how: "acted" },
      metadata: { stream: `playbook/acme/finance/comments/${made.id}`, by: "key:reader", position: 2 }
    })
  })

  it("records nothing for a comment resolved already, and answers it with the how it was resolved with", async () => {
    const made = await f.make({ address, text: "x" })
    const first = (await f.answer(resolve(made.id, "dismissed"))).output
    const again = (await f.answer(resolve(made.id, "acted", "finance", "reader"))).output
    expect(again).toEqual(first)
    expect(again).toMatchObject({ resolved_how: "dismissed", resolved_by: "key:build-bot" })
    expect(await types()).toEqual(["comment_made", "comment_resolved"])
  })

  it("reads the id in lower case", async () => {
    const made = await f.make({ address, text: "x" })
    expect((await f.answer(resolve(made.id.toUpperCase(), "acted"))).output).toMatchObject({ id: made.id, open: false })
  })

  it("refuses an id that is not a UUID at /id, and a how other than acted or dismissed at /how", async () => {
    const made = await f.make({ address, text: "x" })
    expect((await f.refusal(resolve("0199-not-a-uuid", "acted"))).errors).toEqual([
      { pointer: "/id", detail: "id: must be a UUID" }
    ])
    for (const how of ["done", "", 1, null])
      expect((await f.refusal(resolve(made.id, how))).errors).toEqual([
        { pointer: "/how", detail: "how: must be acted or dismissed" }
      ])
    expect((await f.refusal(f.call("resolve_comment", { id: made.id }))).errors).toEqual([
      { pointer: "/how", detail: "how: is required." }
    ])
    expect(await types()).toEqual(["comment_made"])
  })

  it("answers not_found for a UUID no comment of the scope has, another scope's comments among them", async () => {
    const inFinance = await f.make({ address, text: "x" })
    const inOrg = await f.make({ address: "org", text: "x" }, null)
    const unknown = "019a4120-5b6c-7d8e-9f01-2a3b4c5d6e7f"
    expect(await f.refusal(resolve(unknown, "acted"))).toMatchObject({
      reason: "not_found",
      detail: `The playbook finance has no comment ${unknown}.`
    })
    expect(await f.refusal(resolve(inFinance.id, "acted", "sales"))).toMatchObject({ reason: "not_found" })
    expect(await f.refusal(resolve(inOrg.id, "acted"))).toMatchObject({ reason: "not_found" })
    expect(await f.refusal(resolve(inFinance.id, "acted", null))).toMatchObject({
      reason: "not_found",
      detail: `The organization acme has no comment ${inFinance.id} of its own; a playbook's comment is resolved and reopened in its playbook.`
    })
    expect(await f.refusal(reopen(inFinance.id, null))).toMatchObject({ reason: "not_found" })
    expect(await f.refusal(reopen(inOrg.id))).toMatchObject({ reason: "not_found" })
    expect(await types()).toEqual(["comment_made", "comment_made"])
  })

  it("resolves and reopens the organization's comments on org/<org>/comments/<id>", async () => {
    const made = await f.make({ address: "org/members/person:user_7kLm2", text: "x" }, null)
    expect((await f.answer(resolve(made.id, "dismissed", null, "limited"))).output).toMatchObject({
      open: false,
      resolved_how: "dismissed",
      resolved_by: "key:limited"
    })
    expect((await f.answer(reopen(made.id, null, "limited"))).output).toMatchObject({ open: true })
    const streams = new Set((await f.commentFacts()).map((fact) => fact.metadata.stream))
    expect([...streams]).toEqual([`org/acme/comments/${made.id}`])
  })
})

describe("reopen_comment", () => {
  it("records comment_reopened with no data, and answers the comment open, as it was made", async () => {
    const made = await f.make({ address, text: "Flag it", anchor: { x: 0.1, y: 0.2 } })
    await f.answer(resolve(made.id, "acted"))
    const reopened = (await f.answer(reopen(made.id, "finance", "reader"))).output as any
    expect(reopened).toMatchObject({
      id: made.id,
      address,
      text: "Flag it",
      anchor: { x: 0.1, y: 0.2 },
      by: made.by,
      by_name: made.by_name,
      at: made.at,
      studio: made.studio,
      open: true,
      resolved_at: null,
      resolved_by: null,
      resolved_how: null,
      reopened_by: "key:reader"
    })
    const facts = await f.commentFacts()
    expect(facts[2]).toMatchObject({ type: "comment_reopened", data: {}, metadata: { by: "key:reader" } })
    expect(reopened.reopened_at).toBe(facts[2].metadata.at)
  })

  it("records nothing for a comment never resolved, or reopened already", async () => {
    const made = await f.make({ address, text: "x" })
    expect((await f.answer(reopen(made.id))).output).toEqual(made)
    await f.answer(resolve(made.id, "acted"))
    const reopened = (await f.answer(reopen(made.id))).output
    expect((await f.answer(reopen(made.id, "finance", "reader"))).output).toEqual(reopened)
    expect(await types()).toEqual(["comment_made", "comment_resolved", "comment_reopened"])
  })

  it("lets a reopened comment be resolved again with a new comment_resolved, keeping when it was reopened", async () => {
    const made = await f.make({ address, text: "x" })
    await f.answer(resolve(made.id, "acted"))
    const reopened = (await f.answer(reopen(made.id, "finance", "reader"))).output as any
    const again = (await f.answer(resolve(made.id, "dismissed"))).output as any
    expect(again).toMatchObject({
      open: false,
      resolved_how: "dismissed",
      reopened_at: reopened.reopened_at,
      reopened_by: "key:reader"
    })
    expect(await types()).toEqual(["comment_made", "comment_resolved", "comment_reopened", "comment_resolved"])
  })

  it("refuses an id that is not a UUID at /id and a body field it does not take", async () => {
    expect((await f.refusal(reopen("nope"))).errors).toEqual([{ pointer: "/id", detail: "id: must be a UUID" }])
    const made = await f.make({ address, text: "x" })
    expect(
      (await f.refusal(f.call("reopen_comment", { id: made.id, how: "acted" }))).errors?.map((issue) => issue.pointer)
    ).toEqual(["/how"])
  })
})
