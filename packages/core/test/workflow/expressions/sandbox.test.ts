// biome-ignore-all lint/suspicious/noTemplateCurlyInString: expressions are JavaScript text holding template literals
import { afterAll, describe, expect, it } from "vitest"
import { expressionRuntime, failureOf, pinnedNow, valueOf } from "./expressionFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

describe("Date in an expression (workflow-format.md §6.3)", () => {
  it("is pinned to the evaluation's now", async () => {
    expect(await valueOf(runtime, "[Date.now(), new Date().toISOString()]")).toEqual([
      pinnedNow,
      "2026-01-02T03:04:05.678Z"
    ])
    expect(await valueOf(runtime, "Date.now()", { now: 5 })).toBe(5)
  })

  it("takes a number, a date, a date-only string, a date-time with an offset and Date.UTC", async () => {
    expect(
      await valueOf(
        runtime,
        "[new Date(0), new Date(new Date(1000)), new Date('2026-03-01'), new Date('2026-03-01T10:00:00+02:00'), new Date(Date.UTC(2026, 0, 1))].map((d) => d.toISOString())"
      )
    ).toEqual([
      "1970-01-01T00:00:00.000Z",
      "1970-01-01T00:00:01.000Z",
      "2026-03-01T00:00:00.000Z",
      "2026-03-01T08:00:00.000Z",
      "2026-01-01T00:00:00.000Z"
    ])
    expect(await valueOf(runtime, "new Date(0).getUTCFullYear() + Date.parse('2026-01-01Z'.slice(0, 10))")).toBe(
      1970 + Date.parse("2026-01-01")
    )
  })

  const local: ReadonlyArray<readonly [string, string]> = [
    ["new Date(2026, 0, 1)", "new Date(year, month, ...) reads the local time zone"],
    ["new Date('2026-03-01T10:00:00')", "a date-time without Z or an offset reads the local time zone"],
    ["Date()", "Date() without new reads the local time"],
    ["String(new Date(0))", "Date.toString reads the local time zone"],
    ["`${new Date(0)}`", "Date.toString reads the local time zone"],
    ["new Date(0).toLocaleString()", "Date.toLocaleString reads the local time zone"],
    ["new Date(0).getHours()", "Date.getHours reads the local time zone"]
  ]
  for (const [script, words] of local) {
    it(`raises on ${script}`, async () => {
      const failure = await failureOf(runtime, script)
      expect(failure._tag).toBe("ExpressionFailed")
      expect(failure.detail).toMatch(new RegExp(`^the expression raised TypeError: ${words.replace(/[().]/g, "\\$&")}`))
    })
  }
})

describe("what an expression cannot reach (§6.3)", () => {
  it("has none of the removed globals", async () => {
    const names = [
      "eval",
      "Function",
      "WeakRef",
      "FinalizationRegistry",
      "Promise",
      "console",
      "setTimeout",
      "setInterval",
      "setImmediate",
      "queueMicrotask",
      "fetch",
      "Intl",
      "require",
      "process",
      "SharedArrayBuffer",
      "Atomics"
    ]
    expect(await valueOf(runtime, `[${names.map((name) => `typeof ${name}`).join(", ")}, typeof Math.random]`)).toEqual(
      [...names, "Math.random"].map(() => "undefined")
    )
  })

  it("cannot make code from text through a function's constructor", async () => {
    for (const maker of ["(() => 1).constructor", "(function* () {}).constructor", "(async () => 1).constructor"]) {
      const failure = await failureOf(runtime, `${maker}("return 1")`)
      expect(failure.detail).toBe(
        "the expression raised TypeError: generated code is not available: the program may read only its argument"
      )
    }
  })

  it("loads no module: a dynamic import is a promise that never settles, import.meta does not exist", async () => {
    expect((await failureOf(runtime, "import('node:fs')")).detail).toBe(
      "the expression's value cannot be JSON: $ holds an instance of Promise"
    )
    expect((await failureOf(runtime, "import.meta")).detail).toMatch(/^the expression raised SyntaxError/)
  })

  it("runs in strict mode and cannot reassign a variable", async () => {
    expect((await failureOf(runtime, "(() => { undeclared = 1 })()")).detail).toMatch(
      /^the expression raised ReferenceError/
    )
    expect((await failureOf(runtime, "$data = 2")).detail).toMatch(/^the expression raised TypeError/)
  })

  it("sees nothing an earlier evaluation wrote", async () => {
    expect(
      await valueOf(
        runtime,
        "(globalThis.left = 1, Object.prototype.polluted = 1, Array.prototype.at = () => 'x', Date.now = () => 5, JSON.stringify = () => '1', Math.PI)"
      )
    ).toBe(Math.PI)
    expect(
      await valueOf(
        runtime,
        "[typeof left, ({}).polluted ?? 'clean', [7].at(0), Date.now(), JSON.stringify({ a: 1 }), $data.a]"
      )
    ).toEqual(["undefined", "clean", 7, pinnedNow, '{"a":1}', 1])
  })

  it("sees only the variables of its own evaluation", async () => {
    expect(await valueOf(runtime, "$item", { variables: { $item: "first" } })).toBe("first")
    expect((await failureOf(runtime, "$item", { variables: { $data: {} } })).detail).toBe(
      "the expression raised ReferenceError: '$item' is not defined"
    )
  })
})
