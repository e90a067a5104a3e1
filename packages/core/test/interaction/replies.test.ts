import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { sourceIssueWords } from "../../src/formats/DefinitionFormat.js"
import { readInteraction } from "../../src/formats/interaction/readInteraction.js"
import { defaultReplyRule, readReplyRule } from "../../src/formats/interaction/replyRule.js"
import { replyAnswer } from "../../src/interactions/replyAnswer.js"

const decision = {
  type: "object",
  required: ["decision"],
  properties: {
    decision: { type: "string", enum: ["grant", "deny"] },
    reason: { type: "string", maxLength: 10 },
    count: { type: "integer" }
  }
}

/** A question delivered through a tool with `sent`, and the `replies` and `reply` lines given. */
const document = (replies: string, reply = "") => `---
to: room
expires: P1D
deliver:
  server: chat
  tool: send_message
  sent: { conversation: /room_id, id: /message_id }
${replies}${reply}output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Grant?
`

const replies = `replies:
  tool: list_thread
  with: { room: '{{ sent.conversation }}', after: '{{ since }}' }
  read:
    list: /items
    order: oldest_first
    each: { id: /id, sender: /author, text: /body }
`

const issuesOf = (source: string) =>
  Either.match(readInteraction(source), {
    onLeft: (issues) => issues.map(sourceIssueWords),
    onRight: () => []
  })

describe("the reply rule", () => {
  it("defaults to the first word for one required string with enum, the text without, and no rule otherwise", () => {
    expect(defaultReplyRule(decision)).toEqual({ decision: { from: "word", words: { grant: [], deny: [] } } })
    expect(defaultReplyRule({ type: "object", required: ["note"], properties: { note: { type: "string" } } })).toEqual({
      note: { from: "text" }
    })
    expect(defaultReplyRule({ type: "object", required: ["a", "b"], properties: {} })).toBeNull()
    expect(
      defaultReplyRule({ type: "object", required: ["count"], properties: { count: { type: "integer" } } })
    ).toBeNull()
  })

  it("refuses properties that are not top-level strings, word without enum, unknown values, shared words and the bounds", () => {
    const issues = (written: unknown) =>
      readReplyRule(written, decision).issues.map((issue) => `${issue.pointer}: ${issue.message}`)
    expect(issues({ count: "text" })).toEqual([
      "/reply/count: count is not a top-level string property of output.schema"
    ])
    expect(issues({ reason: "word" })[0]).toContain("enum")
    expect(issues({ decision: { from: "word", words: { maybe: ["perhaps"] } } })[0]).toContain(
      "maybe is not one of the values"
    )
    expect(issues({ decision: { from: "word", words: { grant: ["yes"], deny: ["YES"] } } })[0]).toContain(
      'the word "YES" already means grant'
    )
    expect(
      issues({ decision: { from: "word", words: { grant: Array.from({ length: 17 }, (_, index) => `w${index}`) } } })[0]
    ).toContain("at most 16")
    expect(issues({ decision: { from: "word", words: { grant: ["x".repeat(65)] } } })[0]).toContain(
      "more than 64 bytes"
    )
    expect(readReplyRule({ decision: "word", reason: "rest" }, decision)).toEqual({
      rule: { decision: { from: "word", words: { grant: [], deny: [] } }, reason: { from: "rest" } },
      issues: []
    })
  })
})

describe("a reply mapped to an answer", () => {
  const rule = {
    decision: { from: "word", words: { grant: ["yes", "ok"], deny: ["no"] } },
    reason: { from: "rest" }
  } as const

  it("takes the first word without its punctuation, in any case, and the rest trimmed", () => {
    expect(
      replyAnswer(rule, "  OK!  the customer is right", {
        ...decision,
        properties: { ...decision.properties, reason: { type: "string" } }
      })
    ).toEqual({
      _tag: "Answer",
      answer: { decision: "grant", reason: "the customer is right" }
    })
    expect(replyAnswer(rule, "no", decision)).toEqual({ _tag: "Answer", answer: { decision: "deny" } })
  })

  it("refuses a word naming no value, an answer the schema refuses, words over 8 KiB and a request with no rule", () => {
    expect(replyAnswer(rule, "perhaps", decision)).toMatchObject({ _tag: "Refused", because: "not_an_answer" })
    expect(replyAnswer(rule, "yes but this reason is too long", decision)).toMatchObject({
      _tag: "Refused",
      because: "invalid",
      issues: [{ pointer: "/answer/reason" }]
    })
    expect(replyAnswer(rule, `yes ${"x".repeat(8_200)}`, decision)).toMatchObject({ because: "too_long" })
    expect(replyAnswer(null, "yes", decision)).toMatchObject({ because: "not_an_answer" })
  })
})

describe("the replies block", () => {
  it("reads a replies block and records the default rule", () => {
    const read = Either.getOrThrow(readInteraction(document(replies)))
    expect(read.replies?.block).toMatchObject({
      tool: "list_thread",
      waitMillis: 5_000,
      read: { order: "oldest_first" }
    })
    expect(read.replyRule).toEqual({ decision: { from: "word", words: { grant: [], deny: [] } } })
  })

  it("refuses an order, a pointer, a wait and a variable the place does not take, and a written rule's problems", () => {
    const broken = replies
      .replace("order: oldest_first", "order: sideways")
      .replace("text: /body", "text: body")
      .replace("after: '{{ since }}'", "after: '{{ input.x }}'")
      .concat("  wait: PT2S\n")
    expect(issuesOf(document(broken, "reply: { reason: rest }\n"))).toEqual([
      expect.stringMatching(/at \/replies\/with\/after: line 1 of the template: unknown variable input/),
      expect.stringMatching(/at \/replies\/read\/order: expected oldest_first or newest_first/),
      expect.stringMatching(/at \/replies\/read\/each\/text: expected a JSON pointer/),
      expect.stringMatching(/at \/replies\/wait: expected an ISO 8601 duration from PT5S to PT1H/),
      expect.stringMatching(/at \/reply\/reason: reason is not a top-level string property of output.schema/)
    ])
  })
})
