// biome-ignore-all lint/suspicious/noTemplateCurlyInString: expressions are JavaScript text holding template literals
import { afterAll, describe, expect, it } from "vitest"
import { expressionRuntime, failureOf, valueOf } from "./expressionFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

describe("an expression's value (workflow-format.md §6.2)", () => {
  it("computes from the variables, each a global of its own name", async () => {
    expect(await valueOf(runtime, "$data.a + 1")).toBe(2)
    expect(await valueOf(runtime, "`Hi ${$data.name}, you have ${$data.a + 1} tasks`")).toBe("Hi Ada, you have 2 tasks")
    const variables = { $data: [3, 1, 2], $input: { note: "n" }, $line: { sku: "A-1" }, $index: 4 }
    expect(
      await valueOf(runtime, "({ sorted: $data.toSorted(), note: $input.note, sku: $line.sku, at: $index })", {
        variables
      })
    ).toEqual({ sorted: [1, 2, 3], note: "n", sku: "A-1", at: 4 })
    expect(await valueOf(runtime, "[typeof globalThis.$data, Object.keys(globalThis).includes('$data')]")).toEqual([
      "object",
      true
    ])
  })

  it("spans lines and ignores a trailing comment", async () => {
    expect(await valueOf(runtime, "$data.a\n  * 10 // times ten")).toBe(10)
  })

  it("gives JSON as written, keys in insertion order, strings ordered by UTF-16 code unit", async () => {
    const value = await valueOf(runtime, '({ b: 1, a: [true, null, "x", 1.5, -0], ["__proto__"]: { c: {} } })')
    expect(JSON.stringify(value)).toBe('{"b":1,"a":[true,null,"x",1.5,0],"__proto__":{"c":{}}}')
    expect(await valueOf(runtime, '["é", "z", "Z", "\\u{1F600}", "\\uFFFF"].toSorted()')).toEqual([
      "Z",
      "z",
      "é",
      "\u{1F600}",
      "\uFFFF"
    ])
  })

  it("reads undefined as null: the whole value, a member, an item", async () => {
    expect(await valueOf(runtime, "$data.note")).toBeNull()
    expect(await valueOf(runtime, "({ note: $data.note, list: [undefined, 1] })")).toEqual({
      note: null,
      list: [null, 1]
    })
  })

  it("reads a getter once and ignores a toJSON the expression put on a prototype", async () => {
    expect(
      await valueOf(
        runtime,
        "(() => { let reads = 0; Object.prototype.toJSON = () => 'replaced'; Array.prototype.toJSON = () => 'replaced'; return { get n() { return ++reads }, list: [1] } })()"
      )
    ).toEqual({ n: 1, list: [1] })
  })

  it("takes values nested 512 levels and refuses 513, naming where (cut to 1 KiB)", async () => {
    const nested = (levels: number) => `(() => { let v = 1; for (let i = 0; i < ${levels}; i++) v = [v]; return v })()`
    let value = await valueOf(runtime, nested(512))
    for (let level = 0; level < 512; level++) value = (value as Array<unknown>)[0]
    expect(value).toBe(1)
    const { detail } = await failureOf(runtime, nested(513))
    expect(detail).toMatch(
      /^the expression's value cannot be JSON: the value nests deeper than 512 levels, at \$(\[0\])+/
    )
    expect(detail.endsWith("…")).toBe(true)
    expect(Buffer.byteLength(detail)).toBeLessThanOrEqual(1_024)
  })
})

describe("values JSON cannot carry fail with their path (§6.2)", () => {
  const refused: ReadonlyArray<readonly [string, string]> = [
    ["({ due: new Date(0) })", "$.due holds a Date"],
    ["[new Map()]", "$[0] holds a Map"],
    ["({ a: { 'odd key': new Set() } })", '$.a["odd key"] holds a Set'],
    ["new (class Invoice {})()", "$ holds an instance of Invoice"],
    ["({ flag: new Boolean(true) })", "$.flag holds a boxed boolean"],
    ["({ n: new Number(1) })", "$.n holds a boxed number"],
    ["({ s: new String('x') })", "$.s holds a boxed string"],
    ["({ bytes: new Uint8Array(2) })", "$.bytes holds a typed array"],
    ["({ f: () => 1 })", "$.f holds a function"],
    ["({ big: 1n })", "$.big holds a BigInt"],
    ["[Symbol('s')]", "$[0] holds a symbol"],
    ["({ x: 0 / 0 })", "$.x holds NaN"],
    ["[1 / 0]", "$[0] holds Infinity"],
    ["[[-1 / 0]]", "$[0][0] holds -Infinity"],
    ["[1, , 3]", "$[1] is a hole in the list"],
    [
      "(() => { const a = { list: [] }; a.list.push(a); return a })()",
      "$.list[0] holds a cycle: a value that contains itself"
    ],
    ["({ v: { toJSON() { return 1 } } })", "$.v.toJSON holds a function"],
    ["(async () => 1)()", "$ holds an instance of Promise"]
  ]
  for (const [script, problem] of refused) {
    it(`${script} → ${problem}`, async () => {
      const failure = await failureOf(runtime, script)
      expect(failure._tag).toBe("ExpressionFailed")
      expect(failure.detail).toBe(`the expression's value cannot be JSON: ${problem}`)
    })
  }

  it("accepts the same value twice in one result when it is not its own ancestor", async () => {
    expect(await valueOf(runtime, "(() => { const shared = { a: 1 }; return [shared, { again: shared }] })()")).toEqual(
      [{ a: 1 }, { again: { a: 1 } }]
    )
  })
})
