import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { copyJson } from "../../../src/workflow/engine/jsonValues.js"

describe("copyJson", () => {
  it("copies any JSON value as structuredClone does: equal, keys in order, nothing shared", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = copyJson(value)
        expect(JSON.stringify(copy)).toBe(JSON.stringify(structuredClone(value)))
        if (typeof value === "object" && value !== null) expect(copy).not.toBe(value)
      })
    )
  })

  it("keeps a __proto__ member as data, and changing the copy leaves the original", () => {
    const original = JSON.parse('{"__proto__": {"polluted": true}, "nested": {"list": [1, {"n": 2}]}}')
    const copy = copyJson(original)
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.keys(copy)).toEqual(["__proto__", "nested"])
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
    copy.nested.list[1].n = 3
    expect(original.nested.list[1].n).toBe(2)
  })
})
