import { interactionFormat, type SourceIssue, sourceIssueWords } from "@runledger/core"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { askDocument, askInput } from "./interactionFixture.js"

/** The words of every issue a document has when read, or [] when it reads. */
const issuesOf = (source: string): ReadonlyArray<string> =>
  Either.match(interactionFormat.read(source), {
    onLeft: (issues: ReadonlyArray<SourceIssue>) => issues.map(sourceIssueWords),
    onRight: () => []
  })

const document = (front: string, body = "Hello {{ input.name }}") => `---\n${front}---\n${body}\n`

const startedAt = Date.parse("2026-05-06T07:08:09.000Z")
const run = (source: string, input: unknown) =>
  Effect.runPromise(interactionFormat.run({ runId: "r", source, version: 1, input, startedAt }))

describe("the interaction document", () => {
  it("reads a request held for an agent: finishes later, calls no tools, the answer schema as output schema", () => {
    const read = interactionFormat.read(askDocument())
    expect(Either.isRight(read)).toBe(true)
    const doc = Either.getOrThrow(read)
    expect(doc).toMatchObject({ description: "Ask the owner about a refund", finishesLater: true, callsTools: false })
    expect((doc.outputSchema as { required: Array<string> }).required).toEqual(["decision"])
  })

  it("refuses a request that names no deliver, naming deliver: agent and delivery through a tool", () => {
    const issues = issuesOf(document("to: '{{ input.name }}'\nexpires: PT1H\noutput:\n  schema: { type: string }\n"))
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatch(
      /^Line 2, column 1: at \/deliver: the request names no way to reach its party: write deliver: agent/
    )
    expect(issues[0]).toContain("as deliver: { server, tool, with }")
  })

  it("refuses a notification without a tool, or with deliver: agent", () => {
    expect(issuesOf(document("to: x\nexpires: PT1H\n"))[0]).toMatch(
      /at \/deliver: a notification takes no answer, so no agent holds it/
    )
    const agent = issuesOf(document("to: x\nexpires: PT1H\ndeliver: agent\n"))
    expect(agent[0]).toMatch(/^Line 4, column 10: at \/deliver: a notification takes no answer/)
  })

  it("refuses from, reply and replies beside deliver: agent (decision F7)", () => {
    const issues = issuesOf(askDocument("from: '{{ input.owner }}'\nreply: { decision: word }\n"))
    expect(issues.some((issue) => issue.includes("at /from: from is refused"))).toBe(true)
    expect(issues.some((issue) => issue.includes("at /reply: reply is refused"))).toBe(true)
  })

  it("requires to and expires, and bounds expires to PT1M..P30D", () => {
    const missing = issuesOf(document("deliver: agent\noutput:\n  schema: { type: string }\n"))
    expect(missing.some((issue) => issue.includes("at /to: the key to is required"))).toBe(true)
    expect(missing.some((issue) => issue.includes("at /expires: the key expires is required"))).toBe(true)
    for (const expires of ["PT59S", "P31D", "P1M", "soon", "P"])
      expect(issuesOf(askDocument().replace("PT1H", expires))[0]).toMatch(
        /at \/expires: expected an ISO 8601 duration from PT1M to P30D/
      )
    for (const expires of ["PT1M", "P30D", "P1W", "PT90.5S", "P1DT2H"])
      expect(issuesOf(askDocument().replace("PT1H", expires))).toEqual([])
  })

  it("refuses unknown keys at every level, and the keys other types take, with reasons", () => {
    const issues = issuesOf(askDocument("model: gpt\ninput:\n  default: 1\n"))
    expect(
      issues.some((issue) =>
        /at \/model: unknown key "model" \(an interaction asks a party and runs no model\)/.test(issue)
      )
    ).toBe(true)
    expect(issues.some((issue) => issue.includes('at /input/default: unknown key "default"'))).toBe(true)
  })

  it("names the required keys of an empty front matter", () => {
    expect(issuesOf("---\n---\nHi\n")[0]).toContain("an interaction function needs the keys to, expires, deliver")
  })

  it("checks the answer and input schemas as JSON Schemas", () => {
    const issues = issuesOf(
      askDocument().replace(
        "decision: { type: string, enum: [grant, deny] }",
        "decision: { type: string, pattern: 'a+' }"
      )
    )
    expect(issues[0]).toMatch(/at \/output\/schema\/properties\/decision\/pattern: .*backtrack/)
  })

  it("checks templates at save: unknown variables, unknown and removed filters and tags, ${, moments without properties", () => {
    expect(issuesOf(askDocument("", "Hi {{ secret }}"))[0]).toMatch(
      /^Line 13, column 7: at \/body: unknown variable secret; this template reads input, today, now/
    )
    expect(issuesOf(askDocument("", "{{ input.x | shout }}"))[0]).toContain("the filter shout does not exist")
    expect(issuesOf(askDocument("", "{{ input.x | date: '%Y' }}"))[0]).toContain(
      "the filter date is not allowed in templates: it reads the server's clock"
    )
    expect(issuesOf(askDocument("", "{% include 'x' %}"))[0]).toContain("the tag include is not allowed in templates")
    expect(issuesOf(askDocument("", "{% capture x %}a{% endcapture %}"))[0]).toContain("the tag capture is not allowed")
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the document holds ${ on purpose
    expect(issuesOf(askDocument("", "Cost ${ input.x }"))[0]).toContain("may not contain ${")
    expect(issuesOf(askDocument("", "{{ now.year }}"))[0]).toContain("now is text and has no properties")
    expect(issuesOf(askDocument().replace("'{{ input.owner }}'", "'{{ owner }}'"))[0]).toMatch(
      /at \/to: line 1 of the template: unknown variable owner/
    )
    expect(
      issuesOf(
        askDocument(
          "",
          "{% assign n = input.a | plus: 1 %}{% for i in input.list %}{{ i }}{{ n }}{{ forloop.index }}{% endfor %} {{ today }} {{ input.x | clip: 3 }} {{ input.t | words }} {{ input | json }}"
        )
      )
    ).toEqual([])
  })

  it("bounds a template's nesting and names in its own words", () => {
    const deep = `${"{% if input.a %}".repeat(2001)}x${"{% endif %}".repeat(2001)}`
    expect(issuesOf(askDocument("", deep))[0]).toContain("the template nests deeper than 2000 levels")
    const many = Array.from({ length: 1001 }, (_, index) => `{{ input.v${index} }}`).join("")
    expect(issuesOf(askDocument("", many))[0]).toContain("hold 2002 names; at most 1000 are allowed")
  })

  it("requires a message in the body", () => {
    expect(issuesOf(askDocument("", "  "))[0]).toMatch(/at \/body: the body holds the message the party reads/)
  })

  it("call excludes the request's keys and the body, and needs output.schema", () => {
    const issues = issuesOf(document("to: x\ncall: { server: crm, tool: close_deal }\n", "Body"))
    expect(issues.some((issue) => issue.includes("at /to: call excludes to"))).toBe(true)
    expect(issues.some((issue) => issue.includes("at /body: call takes no body"))).toBe(true)
    expect(issues.some((issue) => issue.includes("at /output: call needs output.schema"))).toBe(true)
  })

  it("saves, with no check of its server, a document that delivers through a tool", async () => {
    for (const source of [
      askDocument(),
      document("to: x\nexpires: PT1H\ndeliver: { server: chat, tool: send_message }\n")
    ])
      expect(
        await Effect.runPromise(
          interactionFormat.checkAtSave(source, Either.getOrThrow(interactionFormat.read(source)), {
            org: "local",
            playbook: "p"
          })
        )
      ).toEqual([])
  })

  it("reads a call: within the request, calling a tool, its arguments and read pointer checked", () => {
    const source = document(
      "call:\n  server: crm\n  tool: close_deal\n  with: { deal: '{{ input.deal }}', at: '{{ nowt }}' }\n  read: stock\noutput:\n  schema: { type: object }\n",
      ""
    )
    const issues = issuesOf(source)
    expect(issues).toEqual([
      expect.stringMatching(/^Line 5, column \d+: at \/call\/with\/at: line 1 of the template: unknown variable nowt/),
      expect.stringMatching(/^Line 6, column \d+: at \/call\/read: expected a JSON pointer that begins with \//)
    ])
    const fine = document(
      "call:\n  server: crm\n  tool: close_deal\n  with: { deal: '{{ input.deal }}' }\n  read: /id\noutput:\n  schema: { type: string }\n",
      ""
    )
    expect(Either.getOrThrow(interactionFormat.read(fine))).toMatchObject({ finishesLater: false, callsTools: true })
  })

  /** A `with` block holding `bytes` bytes of literal text, and a template that reads `variable`. */
  const heavy = (variable: string, bytes = 16_400) => `{ note: '${"x".repeat(bytes)}', at: '{{ ${variable} }}' }`

  it("refuses at save arguments that read no input and hold more than 16 KiB as JSON, under deliver.with and call.with", () => {
    const deliver = document(
      `to: x\nexpires: PT1H\ndeliver:\n  server: chat\n  tool: send_message\n  with: ${heavy("now")}\n`
    )
    expect(issuesOf(deliver)).toEqual([
      expect.stringMatching(
        /^Line 7, column \d+: at \/deliver\/with: the arguments render 16,4\d\d bytes as JSON, and a call's arguments hold at most 16 KiB \(16,384 bytes\); they read no input, so every run would be refused/
      )
    ])
    const call = document(
      `call:\n  server: crm\n  tool: close_deal\n  with: ${heavy("today")}\noutput:\n  schema: { type: object }\n`,
      ""
    )
    expect(issuesOf(call)).toEqual([
      expect.stringMatching(/^Line 5, column \d+: at \/call\/with: the arguments render 16,4\d\d bytes/)
    ])
  })

  it("leaves to each run the measure of arguments that read the input or the request, and saves arguments that fit", () => {
    for (const variable of ["input.note", "message", "to"])
      expect(
        issuesOf(
          document(`to: x\nexpires: PT1H\ndeliver:\n  server: chat\n  tool: send_message\n  with: ${heavy(variable)}\n`)
        )
      ).toEqual([])
    expect(
      issuesOf(
        document(
          `to: x\nexpires: PT1H\ndeliver:\n  server: chat\n  tool: send_message\n  with: ${heavy("now", 16_000)}\n`
        )
      )
    ).toEqual([])
  })
})

describe("an interaction run", () => {
  it("renders the request at the run's start and waits, recording interaction_requested and run_deferred", async () => {
    const ending = await run(
      askDocument("", "Refund {{ input.amount | money }} for {{ input.order }} on {{ today }}"),
      askInput
    )
    expect(ending._tag).toBe("Started")
    if (ending._tag !== "Started") return
    expect(ending.facts?.map((fact) => fact.type)).toEqual(["interaction_requested", "run_deferred"])
    expect(ending.facts?.[0]?.data).toEqual({
      delivery: "agent",
      to: "dana@example.com",
      message_bytes: 40,
      takes_answer: true,
      expires_at: "2026-05-06T08:08:09.000Z"
    })
    expect(ending.facts?.[1]?.data).toMatchObject({
      record: {
        to: "dana@example.com",
        message: "Refund $1,234.50 for A-17 on 2026-05-06\n",
        answerer: null,
        deliver: "agent",
        expires_at: "2026-05-06T08:08:09.000Z",
        requested_at: "2026-05-06T07:08:09.000Z"
      }
    })
  })

  it("stops invalid_input on a missing field, or a filter that refuses the value", async () => {
    const missing = await run(askDocument(), { owner: "x", amount: 1 })
    expect(missing).toMatchObject({ _tag: "Rejected", rejection: { reason: "invalid_input" } })
    if (missing._tag === "Rejected") expect(missing.rejection.errors?.[0]).toMatchObject({ pointer: "/input/order" })
    const money = await run(askDocument(), { ...askInput, amount: "lots" })
    expect(money).toMatchObject({ _tag: "Rejected", rejection: { reason: "invalid_input" } })
  })

  it("ends unworkable when to renders empty, too long, with a control character or as an object", async () => {
    for (const owner of ["", "x".repeat(257), "a\u0007b", { name: "x" }]) {
      const ending = await run(askDocument(), { ...askInput, owner })
      expect(ending).toMatchObject({ _tag: "Rejected", rejection: { reason: "conflict", kind: "unworkable" } })
    }
  })

  it("ends unworkable when the message renders over 8 KiB", async () => {
    const ending = await run(askDocument("", "{{ input.order }}"), { ...askInput, order: "x".repeat(8193) })
    expect(ending).toMatchObject({ _tag: "Rejected", rejection: { reason: "conflict", kind: "unworkable" } })
  })

  it("checks the input schema first", async () => {
    const source = askDocument("input:\n  schema: { type: object, required: [owner] }\n")
    const ending = await run(source, {})
    expect(ending).toMatchObject({ _tag: "Rejected", rejection: { reason: "invalid_input", kind: "input_schema" } })
  })
})
