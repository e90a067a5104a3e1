import { describe, expect, it } from "vitest"
import { checkArguments } from "../../src/tools/checkArguments.js"

describe("checking a tool's arguments (validate, dry_run)", () => {
  it("lists at most 20 issues, then one that counts the rest", () => {
    const properties = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`p${index}`, { type: "string" }]))
    const args = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`p${index}`, index]))
    const checked = checkArguments({ type: "object", properties }, args)
    expect(checked.valid).toBe(false)
    expect(checked.issues).toHaveLength(21)
    expect(checked.issues[0]).toEqual({ path: "/p0", message: expect.stringContaining("string") })
    expect(checked.issues[20]).toEqual({ path: "", message: "5 more issues are not shown." })
  })

  it("checks the formats it knows, with an example, and leaves another format unchecked", () => {
    const schema = {
      type: "object",
      properties: { on: { type: "string", format: "date-time" }, id: { type: "string", format: "int64" } }
    }
    expect(checkArguments(schema, { on: "tomorrow", id: "not a number" })).toEqual({
      valid: false,
      issues: [{ path: "/on", message: "Expected a string in the format date-time, such as 2026-04-01T09:00:00Z" }]
    })
    expect(checkArguments(schema, { on: "2026-04-01T09:00:00Z", id: "x" })).toEqual({ valid: true, issues: [] })
  })

  it("answers valid null, with one issue saying why, for a schema with a regular expression", () => {
    for (const schema of [
      { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } },
      { type: "object", patternProperties: { "^x-": { type: "string" } } },
      {
        type: "object",
        properties: { list: { type: "array", items: { $ref: "#/$defs/code" } } },
        $defs: { code: { pattern: "^a$" } }
      }
    ])
      expect(checkArguments(schema, { code: "aaaa!" })).toEqual({
        valid: null,
        issues: [{ path: "", message: expect.stringContaining("holds a regular expression (pattern)") }]
      })
    // An argument named pattern, or a value holding one, is no regular expression.
    const named = { type: "object", properties: { pattern: { type: "string" } }, default: { pattern: "^a$" } }
    expect(checkArguments(named, { pattern: 7 })).toMatchObject({ valid: false, issues: [{ path: "/pattern" }] })
  })

  it("answers valid null, with one issue saying why, for a schema its checker cannot read", () => {
    const checked = checkArguments({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, { a: 1 })
    expect(checked).toEqual({
      valid: null,
      issues: [
        {
          path: "",
          message: expect.stringMatching(
            /^The runtime cannot check against this tool's input schema: .*; the arguments may still be right\.$/
          )
        }
      ]
    })
  })
})
