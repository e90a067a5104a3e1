import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { jsonBytes, utf8Bytes } from "../../src/domain/utf8Bytes.js"

const encoded = (text: string) => new TextEncoder().encode(text).length

describe("UTF-8 sizes", () => {
  it("count what an encoder writes, lone surrogates as U+FFFD", () => {
    expect(utf8Bytes("")).toBe(0)
    expect(utf8Bytes("aé€😀")).toBe(1 + 2 + 3 + 4)
    expect(utf8Bytes("\ud800x\udc00")).toBe(encoded("\ud800x\udc00"))
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => utf8Bytes(text) === encoded(text)))
  })

  it("size a value as its JSON, undefined as null", () => {
    expect(jsonBytes(undefined)).toBe(4)
    expect(jsonBytes({ a: "é" })).toBe(encoded('{"a":"é"}'))
    fc.assert(fc.property(fc.jsonValue(), (value) => jsonBytes(value) === encoded(JSON.stringify(value))))
  })
})
