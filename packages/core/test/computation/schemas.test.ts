import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { readComputation } from "../../src/formats/computation/readComputation.js"
import { programDeclarations, typeOf } from "../../src/formats/computation/schemaTypes.js"
import { sourceIssueWords } from "../../src/formats/DefinitionFormat.js"
import { checkSchema } from "../../src/formats/jsonSchema/checkSchema.js"
import { schemaValidator } from "../../src/formats/jsonSchema/SchemaValidator.js"

const messages = (schema: unknown) => checkSchema(schema).map((issue) => `${issue.pointer}: ${issue.message}`)
const validate = (schema: unknown, value: unknown) => Either.getOrThrow(schemaValidator(schema))(value, "/input")

describe("schema rules", () => {
  it("accepts an ordinary schema with local references", () => {
    expect(
      messages({
        type: "object",
        properties: { home: { $ref: "#/$defs/address" }, tags: { type: "array", items: { enum: ["a", "b"] } } },
        $defs: { address: { type: "object", properties: { street: { type: "string" } } } }
      })
    ).toEqual([])
  })

  it("refuses the keywords that cost without bound or mean too much", () => {
    expect(messages({ type: "object", properties: { name: { type: "string", pattern: "^(a+)+$" } }, if: {} })).toEqual([
      "/properties/name/pattern: pattern is not allowed: regular expressions can backtrack without end",
      "/if: if is not allowed: conditional schemas are not supported"
    ])
    expect(messages({ requried: ["x"] })).toEqual(["/requried: unknown keyword requried"])
  })

  it("limits $ref, not, enum, const and additionalProperties", () => {
    expect(messages({ $ref: "https://example.com/s.json" })[0]).toContain("$ref may only name #/$defs/<name>")
    expect(messages({ $ref: "#/$defs/missing" })[0]).toContain("which the schema does not define")
    expect(messages({ not: { type: "string" } })).toEqual(["/not: not is only allowed as {}"])
    expect(messages({ enum: [{ a: 1 }] })[0]).toContain("enum must list strings")
    expect(messages({ enum: Array.from({ length: 1_001 }, (_, index) => index) })[0]).toContain("at most 1000")
    expect(messages({ const: [1] })[0]).toContain("const must be")
    expect(messages({ type: "object", additionalProperties: { type: "string" } })[0]).toContain(
      "needs properties beside it"
    )
    expect(messages({ type: "object", properties: {}, additionalProperties: { type: "string" } })).toEqual([])
  })

  it("refuses a reference cycle with no property or item between, and accepts a tree", () => {
    expect(
      messages({
        $ref: "#/$defs/a",
        $defs: { a: { anyOf: [{ $ref: "#/$defs/b" }] }, b: { allOf: [{ $ref: "#/$defs/a" }] } }
      })[0]
    ).toContain("refers back to itself")
    expect(
      messages({
        $defs: {
          node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } }
        },
        $ref: "#/$defs/node"
      })
    ).toEqual([])
  })

  it("bounds size and depth, and knows draft-07 by $schema or definitions", () => {
    let deep: unknown = { type: "string" }
    for (let level = 0; level < 70; level++) deep = { type: "array", items: deep }
    expect(messages(deep)[0]).toContain("deeper than 64")
    expect(messages({ $schema: "http://json-schema.org/draft-04/schema#" })[0]).toContain(
      "only JSON Schema draft 2020-12 and draft-07"
    )
    expect(messages({ definitions: { a: { type: "string" } }, items: [{ $ref: "#/definitions/a" }] })).toEqual([])
    expect(
      validate({ definitions: { a: { type: "string" } }, items: [{ $ref: "#/definitions/a" }] }, [1])[0]!.pointer
    ).toBe("/input/0")
  })

  it("places schema issues in the document", () => {
    const read = readComputation(
      "---\nlanguage: typescript\ninput:\n  schema:\n    type: object\n    properties:\n      name: { type: string, pattern: x }\n---\nx"
    )
    expect(Either.isLeft(read) && read.left.map(sourceIssueWords)).toEqual([
      "Line 7, column 38: at /input/schema/properties/name/pattern: pattern is not allowed: regular expressions can backtrack without end"
    ])
  })
})

describe("values against schemas", () => {
  const schema = {
    type: "object",
    required: ["lines"],
    additionalProperties: false,
    properties: {
      lines: { type: "array", items: { type: "object", properties: { quantity: { type: "integer", minimum: 1 } } } }
    }
  }

  it("names each issue at its pointer under /input with a sentence", () => {
    expect(validate(schema, { lines: [{ quantity: 0 }, { quantity: "2" }], extra: 1 })).toEqual([
      { pointer: "/input/extra", detail: "/input/extra is not a field this place takes." },
      { pointer: "/input/lines/0/quantity", detail: "/input/lines/0/quantity must be >= 1." },
      { pointer: "/input/lines/1/quantity", detail: '/input/lines/1/quantity must be integer, found the string "2".' }
    ])
    expect(validate(schema, {})).toEqual([
      { pointer: "/input/lines", detail: "/input/lines is missing; it is required." }
    ])
  })

  it("lists at most 20 issues then counts the rest", () => {
    const many = validate(schema, { lines: Array.from({ length: 25 }, () => ({ quantity: 0 })) })
    expect(many).toHaveLength(21)
    expect(many[20]).toEqual({ pointer: "/input", detail: "5 more issues are not shown." })
  })

  it("refuses values deeper than 512 levels", () => {
    let deep: unknown = 1
    for (let level = 0; level < 513; level++) deep = [deep]
    expect(validate(true, deep)).toEqual([{ pointer: "/input", detail: "/input nests deeper than 512 levels." }])
  })
})

describe("types from schemas", () => {
  it("maps objects, arrays, enums, unions and definitions", () => {
    expect(
      typeOf(
        { type: "object", required: ["a"], properties: { a: { type: "integer" }, b: { enum: ["x", 1] } } },
        "Input"
      )
    ).toBe('{ "a": number; "b"?: "x" | 1 }')
    expect(typeOf({ type: "object" }, "Input")).toBe("{ [key: string]: Json }")
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "null" }] }, "Input")).toBe("(string) | (null)")
    expect(typeOf({ type: "array", prefixItems: [{ type: "string" }], items: false }, "Input")).toBe("[string]")
    expect(
      programDeclarations({ $ref: "#/$defs/home-address", $defs: { "home-address": { type: "string" } } }, undefined)
    ).toContain("type Input_home$45$address = string;")
    expect(programDeclarations(undefined, undefined)).toContain("type Output = Json;")
  })
})
