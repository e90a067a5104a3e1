import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { readComputation } from "../../src/formats/computation/readComputation.js"
import { type SourceIssue, sourceIssueWords } from "../../src/formats/DefinitionFormat.js"
import { finishIssues } from "../../src/formats/document/finishIssues.js"
import { invoiceDocument } from "./invoice.js"

const issuesOf = (source: string): ReadonlyArray<string> =>
  Either.match(readComputation(source), { onLeft: (issues) => issues.map(sourceIssueWords), onRight: () => [] })

describe("the document envelope", () => {
  it("reads the invoice example", () => {
    const read = readComputation(invoiceDocument)
    expect(Either.isRight(read)).toBe(true)
    if (Either.isRight(read)) {
      expect(read.right.bodyLine).toBe(30)
      expect(read.right.document.finishesLater).toBe(false)
      expect(read.right.document.callsTools).toBe(false)
      expect(read.right.document.description).toBe("Net, VAT per rate and gross of an invoice, all in cents")
    }
  })

  it("refuses a document that does not open on line 1 or never closes", () => {
    expect(issuesOf("\n---\nlanguage: typescript\n---\nx")).toEqual([
      "Line 1, column 1: at : the document must open with a line of exactly --- on line 1, then its front matter"
    ])
    expect(issuesOf("---\nlanguage: typescript\n")).toEqual([
      "Line 1, column 1: at : the front matter opened on line 1 never closes with a line of exactly ---"
    ])
  })

  it("refuses a byte-order mark, a lone carriage return and an oversized document", () => {
    expect(issuesOf("\uFEFF---\nlanguage: typescript\n---\n")[0]).toContain("byte-order mark")
    expect(issuesOf("---\rlanguage: typescript\n---\n")[0]).toContain("lone carriage return")
    expect(issuesOf(`---\nlanguage: typescript\n---\n${"x".repeat(65_536)}`)[0]).toContain("at most 65536")
  })

  it("accepts \\r\\n line endings", () => {
    const source = "---\r\nlanguage: typescript\r\n---\r\nexport default (input: Json): Json => input\r\n"
    expect(Either.isRight(readComputation(source))).toBe(true)
  })

  it("names the required keys of an empty front matter", () => {
    expect(issuesOf("---\n---\nx")).toEqual([
      "Line 1, column 1: at : the front matter is empty; a computation function needs the key language"
    ])
  })

  it("refuses unknown keys at every level, naming the keys the place takes", () => {
    expect(issuesOf("---\nlanguage: typescript\nmodel: gpt\noutput:\n  format: json\n  shap: table\n---\nx")).toEqual([
      'Line 3, column 1: at /model: unknown key "model" (a computation runs no model); this place takes description, language, input, output, page',
      'Line 5, column 3: at /output/format: unknown key "format" (a computation returns JSON; describe it with schema or shape); this place takes schema, shape',
      'Line 6, column 3: at /output/shap: unknown key "shap"; this place takes schema, shape'
    ])
  })

  it("refuses anchors, aliases, tags, repeated keys and non-finite numbers", () => {
    expect(issuesOf("---\nlanguage: typescript\ndescription: !x hi\npage: .inf\npage: 2\n---\nx")).toEqual([
      "Line 3, column 14: at /description: tags (!x) are not allowed; write plain YAML values",
      "Line 4, column 7: at /page: non-finite numbers (.inf, .nan) are not allowed",
      'Line 5, column 1: at /page: the key "page" is repeated in this mapping'
    ])
    expect(issuesOf("---\nlanguage: typescript\npage: &a [1]\ndescription: *a\n---\nx")).toEqual([
      "Line 3, column 7: at /page: anchors (&name) are not allowed; write each value out",
      "Line 4, column 14: at /description: aliases (*name) are not allowed; write the value out"
    ])
  })

  it("keeps YAML 1.2 core scalars as strings", () => {
    const read = readComputation("---\nlanguage: typescript\ndescription: yes\npage: 2026-10-01\n---\nx")
    expect(Either.isRight(read) && read.right.document.description).toBe("yes")
    expect(Either.isRight(read) && read.right.document.page).toBe("2026-10-01")
  })

  it("refuses nesting past 72 levels with one issue", () => {
    const deep = `${"[".repeat(80)}${"]".repeat(80)}`
    const issues = issuesOf(`---\nlanguage: typescript\npage: ${deep}\n---\nx`)
    expect(issues.filter((words) => words.includes("deeper than 72"))).toHaveLength(1)
  })

  it("counts columns in code points", () => {
    expect(issuesOf("---\nlanguage: typescript\ndescription: { é😀: 1, x: 2 }\n---\nx")[0]).toMatch(
      /^Line 3, column 14: at \/description: expected text/
    )
    expect(issuesOf("---\nlanguage: typescript\npage: { é😀: 1 }\nmodel: [x]\n---\nx")[0]).toMatch(
      /^Line 4, column 1: at \/model/
    )
    expect(issuesOf('---\nlanguage: typescript\ndescription: "é😀"\noops: 1\n---\nx')[0]).toMatch(/^Line 4, column 1/)
    expect(issuesOf("---\nlanguage: typescript\npage: {é😀: 1, model: 2}\ninput: {é😀: 1}\n---\nx")[0]).toBe(
      'Line 4, column 9: at /input/é😀: unknown key "é😀"; this place takes schema'
    )
  })

  it("refuses a language other than TypeScript and an empty body", () => {
    expect(issuesOf("---\nlanguage: python\n---\n  \n")).toEqual([
      "Line 2, column 11: at /language: the only language is TypeScript: write language: typescript",
      "Line 4, column 1: at /body: the body must hold the TypeScript module whose default export takes the input"
    ])
  })

  it("refuses both output.shape and output.schema, and an unknown shape", () => {
    expect(issuesOf("---\nlanguage: typescript\noutput:\n  shape: table\n  schema: { type: object }\n---\nx")).toEqual([
      "Line 4, column 10: at /output/shape: write output.shape or output.schema, not both"
    ])
    expect(issuesOf("---\nlanguage: typescript\noutput:\n  shape: chart\n---\nx")[0]).toContain(
      "expected one of table, series, asset"
    )
  })
})

describe("issue lists", () => {
  const at = (line: number, column: number, pointer = "/x"): SourceIssue => ({ line, column, pointer, message: "m" })

  it("de-duplicates and sorts by line, column, pointer", () => {
    expect(finishIssues([at(2, 1), at(1, 5, "/b"), at(1, 5, "/a"), at(2, 1)])).toEqual([
      at(1, 5, "/a"),
      at(1, 5, "/b"),
      at(2, 1)
    ])
  })

  it("shows 20 then counts the rest at the first hidden issue's line", () => {
    const finished = finishIssues(Array.from({ length: 25 }, (_, index) => at(index + 1, 1)))
    expect(finished).toHaveLength(21)
    expect(finished[20]).toEqual({ line: 21, column: 1, pointer: "/x", message: "5 more issues are not shown" })
  })
})
