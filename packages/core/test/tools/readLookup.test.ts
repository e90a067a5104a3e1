import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { readLookup } from "../../src/formats/lookup/readLookup.js"
import { renderArguments } from "../../src/formats/lookup/renderArguments.js"

const issuesOf = (source: string) =>
  Either.match(readLookup(source), {
    onLeft: (issues) => issues.map((issue) => `${issue.line}:${issue.pointer} ${issue.message}`),
    onRight: () => []
  })

describe("reading a lookup document", () => {
  it("takes exactly one of call and runs, output.schema with call, and no body", () => {
    expect(issuesOf("---\ndescription: nothing\n---\n")[0]).toContain("names one of call")
    expect(
      issuesOf("---\ncall: { server: inv, tool: t }\nruns: { type: lookup, name: x }\noutput: { schema: {} }\n---\n")[0]
    ).toContain("exactly one of call and runs")
    expect(issuesOf("---\ncall: { server: inv, tool: t }\n---\n")[0]).toContain("call needs output.schema")
    expect(issuesOf("---\nruns: { type: lookup, name: x }\n---\nsome body\n")[0]).toContain("takes no body")
  })

  it("refuses the keys of other types with their reason, a pointer that is not one, and a bad runs limit", () => {
    const issues = issuesOf(
      "---\ncall: { server: inv, tool: t, read: stock }\nmodel: gateway/x\noutput: { schema: { type: object } }\n---\n"
    )
    expect(issues.some((issue) => issue.includes("/model") && issue.includes("runs no model"))).toBe(true)
    expect(issues.some((issue) => issue.includes("/call/read") && issue.includes("JSON pointer"))).toBe(true)
    expect(issuesOf("---\nruns: { type: lookup, name: x, limit: 101 }\n---\n")[0]).toContain("1 to 100")
  })

  it("renders arguments with their JSON types from single output tags, and text from the rest", () => {
    const read = readLookup(
      "---\ncall:\n  server: inv\n  tool: t\n  with:\n    n: '{{ input.n }}'\n    list: '{{ input.list }}'\n    text: 'sku {{ input.n }}'\n    fixed: [1, '{{ input.n | plus: 1 }}']\noutput: { schema: {} }\n---\n"
    )
    const call = Either.getOrThrow(read).call!
    const rendered = renderArguments(call.with, call.templates, { input: { n: 4, list: ["a", "b"] } })
    expect(Either.getOrThrow(rendered)).toEqual({ n: 4, list: ["a", "b"], text: "sku 4", fixed: [1, 5] })
    const missing = renderArguments(call.with, call.templates, { input: {} })
    expect(Either.isLeft(missing) && missing.left.stop._tag).toBe("missing")
  })
})
