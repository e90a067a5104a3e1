import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { sourceIssueWords } from "../../src/formats/DefinitionFormat.js"
import { modelToolNames } from "../../src/formats/reasoning/modelToolNames.js"
import { readReasoning } from "../../src/formats/reasoning/readReasoning.js"

const issues = (source: string) =>
  Either.match(readReasoning(source), { onLeft: (found) => found.map(sourceIssueWords), onRight: () => [] })

describe("reading a reasoning document", () => {
  it("reads the model, settings, output and tools of a document", () => {
    const read = Either.getOrThrow(
      readReasoning(`---
model: anthropic/claude-sonnet-4-5
config:
  max_output_tokens: 1200
  reasoning: low
output:
  shape: series
tools: [helpdesk/get_ticket, help-centre/*]
---
Hello {{ today }}
`)
    )
    expect(read.settings).toEqual({ maxOutputTokens: 1200, reasoning: "low" })
    expect(read.output.format).toBe("json")
    expect(read.document).toMatchObject({ shape: "series", callsTools: true })
    expect(read.tools).toEqual([
      { server: "helpdesk", tool: "get_ticket" },
      { server: "help-centre", tool: "*" }
    ])
  })

  it("refuses settings out of range, options not offered and a default its schema refuses, each at its line", () => {
    expect(
      issues(`---
model: a/b
config:
  max_output_tokens: 0
  temperature: warm
provider_options:
  anthropic:
    thinking: { type: enabled, budget: 3 }
  openai:
    store: true
input:
  schema:
    type: object
    properties:
      n: { type: integer }
  default:
    n: two
---
Hi
`)
    ).toEqual([
      "Line 4, column 22: at /config/max_output_tokens: expected a whole number from 1 to 64,000, found the number 0",
      'Line 5, column 16: at /config/temperature: expected a number, found the string "warm"',
      "Line 8, column 40: at /provider_options/anthropic/thinking/budget: the option anthropic.thinking.budget is not offered",
      "Line 10, column 12: at /provider_options/openai/store: the option openai.store is not offered",
      'Line 17, column 8: at /input/default/n: /input/default/n must be integer, found the string "two".'
    ])
  })

  it("refuses a system block inside another tag, and a field a closed input does not declare", () => {
    expect(
      issues(`---
model: a/b
input:
  schema:
    type: object
    additionalProperties: false
    properties:
      name: { type: string }
---
{% if input.name %}{% system %}x{% endsystem %}{% endif %}
Hello {{ input.nmae }}
`)
    ).toEqual([
      "Line 10, column 1: at /body: the system block stands at the top level of the prompt, inside no other tag",
      "Line 11, column 10: at /body: input.nmae is not a field of the input schema, which closes the input to name"
    ])
  })
})

describe("model-facing tool names", () => {
  it("replaces characters outside [A-Za-z0-9_], hashes long and colliding names, and numbers what still collides", () => {
    const names = modelToolNames([
      { server: "crm", tool: "find.person" },
      { server: "crm", tool: "find-person" },
      { server: "a", tool: "x".repeat(80) },
      { server: "help-centre", tool: "search" }
    ])
    expect(names[0]).toMatch(/^mcp__crm__find_person_[0-9a-f]{8}$/)
    expect(names[1]).toMatch(/^mcp__crm__find_person_[0-9a-f]{8}$/)
    expect(names[0]).not.toBe(names[1])
    expect(names[2]).toHaveLength(64)
    expect(names[3]).toBe("mcp__help_centre__search")
  })
})

describe("output schema portability", () => {
  it("warns where an output schema leaves the portable subset, naming the providers concerned", () => {
    const read = Either.getOrThrow(
      readReasoning(`---
model: a/b
output:
  format: json
  schema:
    type: object
    required: [total]
    properties:
      total: { type: integer, minimum: 0 }
      note: { type: string, format: regex }
---
Hi
`)
    )
    expect(read.document.warnings).toEqual([
      "Line 6, column 5: at /output/schema: this object is not closed with additionalProperties: false, which strict structured outputs need (openai)",
      "Line 10, column 13: at /output/schema/properties/note: this property is not in required; list it there and make it nullable to keep it optional (openai)",
      "Line 9, column 40: at /output/schema/properties/total/minimum: minimum is not enforced by the model, only by the runtime's check of its answer (anthropic)",
      "Line 10, column 37: at /output/schema/properties/note/format: the format regex is not accepted (anthropic)"
    ])
  })
})
