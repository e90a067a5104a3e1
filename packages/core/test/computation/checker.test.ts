import { Effect, Either, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { computationFormat } from "../../src/formats/computation/computationFormat.js"
import { sourceIssueWords } from "../../src/formats/DefinitionFormat.js"
import { Sandbox } from "../../src/ports/Sandbox.js"
import { computationDocument, invoiceDocument } from "./invoice.js"
import { sandboxRuntime } from "./sandboxFixture.js"

const runtime = sandboxRuntime({ runWorkers: 1 })
afterAll(() => runtime.dispose())

const check = (source: string) =>
  runtime.runPromise(
    Effect.gen(function* () {
      const format = computationFormat(yield* Sandbox)
      const document = Either.getOrThrow(format.read(source))
      return (yield* format.checkAtSave(source, document)).map(sourceIssueWords)
    })
  )

const body = (text: string) => computationDocument(text)

/** Waits for the lazily started checker to be ready, timing its cold start. */
beforeAll(async () => {
  const started = performance.now()
  for (;;) {
    const ready = await check(body("export default (input: Json): Json => input")).then(
      () => true,
      () => false
    )
    if (ready) break
  }
  console.info(`checker ready after ${Math.round(performance.now() - started)} ms`)
}, 60_000)

describe("the save-time checker", () => {
  it("accepts the invoice example within 2 s", async () => {
    const started = performance.now()
    expect(await check(invoiceDocument)).toEqual([])
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it("reports a type error with the compiler's words at its document line", async () => {
    expect(
      await check(body("export default function (input: Json): Output {\n  const n: number = 'x'\n  return n\n}"))
    ).toEqual(["Line 5, column 9: at /body: Type 'string' is not assignable to type 'number'."])
  })

  it("checks against the types made from the schemas", async () => {
    const source = computationDocument(
      "export default (input: Input): Output => ({ total: input.count + 1 })\n",
      "input:\n  schema: { type: object, required: [count], properties: { count: { type: integer } } }\noutput:\n  schema: { type: object, required: [total], properties: { total: { type: string } } }\n"
    )
    expect((await check(source)).join("\n")).toContain(
      "Line 8, column 45: at /body: Type 'number' is not assignable to type 'string'."
    )
  })

  it("refuses imports, generated code and absent globals", async () => {
    const issues = await check(
      body(
        "import fs from 'fs'\nexport default function (input: Json): Json {\n  return [Math.random(), eval('1'), new Date().getHours()]\n}"
      )
    )
    expect(issues).toContain(
      "Line 4, column 1: at /body: the program may read only its argument; no modules, no generated code"
    )
    expect(issues).toContain(
      "Line 6, column 26: at /body: the program may read only its argument; no modules, no generated code"
    )
    expect(issues.join("\n")).toContain("Property 'random' does not exist on type 'Math'.")
    expect(issues.join("\n")).toContain("Property 'getHours' does not exist on type 'Date'.")
    expect(issues.join("\n")).toContain("Cannot find name 'eval'")
  })

  it("refuses top-level statements other than types and exported functions", async () => {
    expect(
      await check(body("let count = 0\nfunction hidden() {}\nexport default (input: Json): Json => input"))
    ).toEqual([
      "Line 4, column 1: at /body: top level holds only types and exported functions",
      "Line 5, column 1: at /body: top level holds only types and exported functions"
    ])
  })

  it("refuses async code", async () => {
    expect(await check(body("export default async function (input: Json): Json { return input }"))).toContain(
      "Line 4, column 16: at /body: the function must answer synchronously"
    )
  })

  it("names the required signature when the default export is missing or wrong", async () => {
    expect(await check(body("export function helper(): number { return 1 }"))).toEqual([
      "Line 4, column 1: at /body: the module needs a default export: export default function (input: Input): Output { … }"
    ])
    expect(
      (await check(body("export default function (input: Json, other: number): Json { return input }"))).join("\n")
    ).toContain("Line 4, column 1: at /body: the default export must be a function (input: Input) => Output: ")
  })

  it("refuses the 501st assignment in one function, not the 500th", async () => {
    const assignments = (count: number) =>
      body(`export default function (input: Json): Json {\n  let n = 0\n${"  n += 1\n".repeat(count)}  return n\n}`)
    expect(await check(assignments(500))).toEqual([])
    expect(await check(assignments(501))).toEqual([
      "Line 506, column 3: at /body: at most 500 assignments per function; keep values in a structure or loop"
    ])
  })

  it("refuses enums and namespaces with the compiler's erasable-syntax words", async () => {
    const issues = await check(body("enum Color { Red }\nexport default (input: Json): Json => input"))
    expect(issues.join("\n")).toContain("erasableSyntaxOnly")
  })
})

describe("the checker's bounds", () => {
  it("answers invalid input when a ready checker passes its bound", async () => {
    const slow = sandboxRuntime({ runWorkers: 1, checkMillis: 1, checkerWaitMillis: 30_000 })
    const source = body("export default (input: Json): Json => input")
    const issues = await slow.runPromise(
      Effect.gen(function* () {
        const format = computationFormat(yield* Sandbox)
        yield* Effect.exit(format.checkAtSave(source, Either.getOrThrow(format.read(source))))
        return yield* format.checkAtSave(source, Either.getOrThrow(format.read(source)))
      })
    )
    await slow.dispose()
    expect(issues.map(sourceIssueWords)).toEqual([
      "Line 4, column 1: at /body: the type check did not finish within 0.001 s; make the program or its types smaller"
    ])
  })

  it("answers unavailable with a retry when no checker is ready", async () => {
    const cold = sandboxRuntime({ runWorkers: 1, checkerWaitMillis: 0 })
    const source = body("export default (input: Json): Json => input")
    const exit = await cold.runPromise(
      Effect.exit(
        Effect.gen(function* () {
          const format = computationFormat(yield* Sandbox)
          return yield* format.checkAtSave(source, Either.getOrThrow(format.read(source)))
        })
      )
    )
    await cold.dispose()
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error).toMatchObject({
      reason: "unavailable",
      retryAfter: 2
    })
  })
})
