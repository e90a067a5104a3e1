import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { testKeys } from "../runtimeFixture.js"
import { type CommentsFixture, makeCommentsFixture } from "./commentsFixture.js"

let f: CommentsFixture
beforeEach(async () => {
  f = await makeCommentsFixture({
    apiKeys: [
      ...testKeys,
      { key: "org-reader", name: "org-reader", org: "acme", permissions: ["org:read"] },
      { key: "writer-only", name: "writer", org: "acme", permissions: ["playbook:write"] }
    ]
  })
})
afterEach(() => f.runtime.dispose())

const step = "finance/definitions/workflow/close-the-week/4/steps/do/1/review"
const anchorWords = "Expected x and y, each a number from 0 to 1 with at most 4 decimals"

/** The issues a make_comment input is refused with. */
const issues = async (input: Record<string, unknown>, playbook: string | null = "finance") =>
  (await f.refusal(f.call(playbook === null ? "make_comment_in_org" : "make_comment", input, playbook))).errors

describe("make_comment", () => {
  it("answers 201 with the comment, open, and records comment_made on the comment's own stream", async () => {
    const answer = await f.answer(
      f.call("make_comment", { address: step, text: "  Flag any entry over $10,000.\n", anchor: { x: 0.6125, y: 0.4 } })
    )
    expect(answer.status).toBe(201)
    const comment = answer.output as any
    expect(comment).toMatchObject({
      address: step,
      text: "Flag any entry over $10,000.",
      anchor: { x: 0.6125, y: 0.4 },
      by: "key:build-bot",
      by_name: "build-bot",
      open: true,
      resolved_at: null,
      resolved_by: null,
      resolved_how: null,
      reopened_at: null,
      reopened_by: null
    })
    expect(comment.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Date(comment.at).toISOString()).toBe(comment.at)
    const [fact, ...more] = await f.commentFacts()
    expect(more).toEqual([])
    expect(fact.type).toBe("comment_made")
    expect(fact.metadata.stream).toBe(`playbook/acme/finance/comments/${comment.id}`)
    expect(fact.metadata).toMatchObject({ by: "key:build-bot", at: comment.at, position: 1 })
    expect(fact.data).toEqual({
      address: step,
      text: "Flag any entry over $10,000.",
      anchor: { x: 0.6125, y: 0.4 },
      by_name: "build-bot"
    })
  })

  it("records the organization's comment on org/<org>/comments/<id>", async () => {
    const comment = await f.make({ address: "org/settings/billing", text: "Which plan?" }, null)
    const [fact] = await f.commentFacts()
    expect(fact.metadata.stream).toBe(`org/acme/comments/${comment.id}`)
  })

  it("gives each comment its own id", async () => {
    const ids = new Set<string>()
    for (let index = 0; index < 5; index++) ids.add((await f.make({ address: step, text: `n${index}` })).id)
    expect(ids.size).toBe(5)
  })
})

describe("the text", () => {
  it("is kept without the white space around it, tabs and line breaks within it kept", async () => {
    expect((await f.make({ address: step, text: "\t\n  a\tb\nc\r\nd  \n" })).text).toBe("a\tb\nc\r\nd")
  })

  it("counts 4,000 characters as sent, white space around it included", async () => {
    expect((await f.make({ address: step, text: "x".repeat(4000) })).text).toHaveLength(4000)
    expect((await f.make({ address: step, text: "😀".repeat(4000) })).text).toBe("😀".repeat(4000))
    for (const text of ["x".repeat(4001), ` ${"x".repeat(3999)}  `])
      expect(await issues({ address: step, text })).toEqual([
        { pointer: "/text", detail: "text: must be at most 4,000 characters as sent, white space around it included" }
      ])
  })

  it("refuses a text that is empty or all white space", async () => {
    for (const text of ["", "   ", "\n\t \r\n", "\u3000"])
      expect(await issues({ address: step, text })).toEqual([
        { pointer: "/text", detail: "text: cannot be empty or all white space" }
      ])
  })

  it("refuses a control character other than a tab or a line break, an unpaired surrogate and a noncharacter", async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["a\u0000b", "text: holds a control character; only a tab and a line break are taken"],
      ["a\u0007b", "text: holds a control character; only a tab and a line break are taken"],
      ["a\u001bb", "text: holds a control character; only a tab and a line break are taken"],
      ["a\u007fb", "text: holds a control character; only a tab and a line break are taken"],
      ["a\u0085b", "text: holds a control character; only a tab and a line break are taken"],
      ["a\ud800b", "text: holds an unpaired surrogate"],
      ["a\udc00", "text: holds an unpaired surrogate"],
      ["a\ufdd0", "text: holds a noncharacter"],
      ["a\uffff", "text: holds a noncharacter"],
      ["a\u{1fffe}", "text: holds a noncharacter"],
      ["a\u{10ffff}", "text: holds a noncharacter"]
    ]
    for (const [text, detail] of cases)
      expect(await issues({ address: step, text }), detail).toEqual([{ pointer: "/text", detail }])
  })

  it("refuses a text that is not text, and a missing one", async () => {
    expect((await issues({ address: step, text: 5 }))?.[0].pointer).toBe("/text")
    expect(await issues({ address: step })).toEqual([{ pointer: "/text", detail: "text: is required." }])
  })
})

describe("the anchor", () => {
  it("is kept as given, and is null when left out or given as null", async () => {
    expect((await f.make({ address: step, text: "x", anchor: { x: 0, y: 1 } })).anchor).toEqual({ x: 0, y: 1 })
    expect((await f.make({ address: step, text: "x", anchor: { x: 0.1234, y: 0.5 } })).anchor).toEqual({
      x: 0.1234,
      y: 0.5
    })
    expect((await f.make({ address: step, text: "x", anchor: null })).anchor).toBeNull()
    expect((await f.make({ address: step, text: "x" })).anchor).toBeNull()
    const [, , third] = await f.commentFacts()
    expect((third.data as any).anchor).toBeNull()
  })

  it("refuses one out of range or with more than 4 decimals at /anchor", async () => {
    for (const anchor of [
      { x: 1.5, y: 0 },
      { x: 0, y: -0.1 },
      { x: 0.12345, y: 0 },
      { x: 0.5, y: 1.00001 }
    ])
      expect(await issues({ address: step, text: "x", anchor }), JSON.stringify(anchor)).toEqual([
        { pointer: "/anchor", detail: `anchor: ${anchorWords}` }
      ])
  })

  it("refuses one that is neither an object nor null at /anchor", async () => {
    for (const anchor of ["top", 5, true, [0.5, 0.5]])
      expect(await issues({ address: step, text: "x", anchor }), JSON.stringify(anchor)).toEqual([
        { pointer: "/anchor", detail: "anchor: Expected object | null" }
      ])
  })

  it("refuses one of another shape at the field within it", async () => {
    expect(await issues({ address: step, text: "x", anchor: { y: 0.5 } })).toEqual([
      { pointer: "/anchor/x", detail: "anchor, then x: Missing key" }
    ])
    expect(await issues({ address: step, text: "x", anchor: {} })).toEqual([
      { pointer: "/anchor/x", detail: "anchor, then x: Missing key" },
      { pointer: "/anchor/y", detail: "anchor, then y: Missing key" }
    ])
    expect(await issues({ address: step, text: "x", anchor: { x: "0.5", y: 0.5 } })).toEqual([
      { pointer: "/anchor/x", detail: "anchor, then x: Expected number" }
    ])
    expect(await issues({ address: step, text: "x", anchor: { x: 0.5, y: null } })).toEqual([
      { pointer: "/anchor/y", detail: "anchor, then y: Expected number" }
    ])
    expect(await issues({ address: step, text: "x", anchor: { x: 0.5, y: 0.5, z: 1 } })).toEqual([
      { pointer: "/anchor/z", detail: "anchor, then z: Expected no excess property" }
    ])
  })
})

describe("a request with several faults", () => {
  it("is refused for the whole input before the form of its address", async () => {
    expect(await issues({ address: "nowhere", text: "x", anchor: { x: 2, y: 0 } })).toEqual([
      { pointer: "/anchor", detail: `anchor: ${anchorWords}` }
    ])
    expect(await issues({ address: "nowhere", text: " ", anchor: { x: 2, y: 0 } })).toEqual([
      { pointer: "/text", detail: "text: cannot be empty or all white space" },
      { pointer: "/anchor", detail: `anchor: ${anchorWords}` }
    ])
    expect(await issues({ address: "x".repeat(513), text: "", extra: 1 })).toEqual(
      expect.arrayContaining([
        { pointer: "/address", detail: "address: must be at most 512 characters" },
        { pointer: "/text", detail: "text: cannot be empty or all white space" },
        { pointer: "/extra", detail: "extra: is not a field this operation takes." }
      ])
    )
  })

  it("is refused as retired before any field in a retired playbook, and so are resolve and reopen", async () => {
    const comment = await f.make({ address: "finance/definitions/computation/total-spend/1", text: "x" })
    await f.answer(f.call("retire_playbook", { playbook: "finance" }, null))
    const expected = {
      reason: "conflict",
      kind: "retired",
      detail: "The playbook finance is retired; restore it with restore_playbook before changing anything in it."
    }
    expect(await f.refusal(f.call("make_comment", { address: "nowhere", text: "", anchor: 5 }))).toMatchObject(expected)
    expect(await f.refusal(f.call("resolve_comment", { id: "not-a-uuid", how: "maybe" }))).toMatchObject(expected)
    expect(await f.refusal(f.call("resolve_comment", { id: comment.id, how: "acted" }))).toMatchObject(expected)
    expect(await f.refusal(f.call("reopen_comment", { id: comment.id }))).toMatchObject(expected)
    expect((await f.commentFacts()).map((fact) => fact.type)).toEqual(["comment_made"])
    const listed = (await f.answer(f.call("list_comments", {}))).output as any
    expect(listed.comments.map((listedComment: any) => listedComment.id)).toEqual([comment.id])
  })
})

describe("who may comment", () => {
  it("is anyone who may read the playbook, a read-only key among them", async () => {
    const comment = await f.make({ address: "playbooks/finance", text: "x" }, "finance", "reader")
    expect(comment).toMatchObject({ by: "key:reader", by_name: "reader" })
  })

  it("refuses a playbook the key may not act on, one the org does not have, and a key without playbook:read", async () => {
    expect(
      await f.refusal(f.call("make_comment", { address: "playbooks/archive", text: "x" }, "archive", "limited"))
    ).toMatchObject({ reason: "forbidden" })
    expect(await f.refusal(f.call("make_comment", { address: "playbooks/ghost", text: "x" }, "ghost"))).toMatchObject({
      reason: "not_found"
    })
    for (const key of ["org-reader", "writer-only"])
      expect(
        await f.refusal(f.call("make_comment", { address: "playbooks/finance", text: "x" }, "finance", key))
      ).toMatchObject({ reason: "forbidden", detail: expect.stringContaining("playbook:read") })
    expect(
      await f.refusal(f.call("make_comment", { address: "playbooks/finance", text: "x" }, "finance", "other-org"))
    ).toMatchObject({ reason: "forbidden" })
    expect(await f.commentFacts()).toEqual([])
  })

  it("on the organization's things is any key of the org that may read, one limited to some playbooks among them", async () => {
    for (const key of ["limited", "org-reader", "reader"])
      expect((await f.make({ address: "org", text: key }, null, key)).by).toBe(`key:${key}`)
    expect(
      await f.refusal(f.call("make_comment_in_org", { address: "org", text: "x" }, null, "writer-only"))
    ).toMatchObject({ reason: "forbidden", detail: expect.stringContaining("org:read or playbook:read") })
  })
})
