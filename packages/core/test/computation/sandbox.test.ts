import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Exit, runExit, runOf, sandboxRuntime } from "./sandboxFixture.js"

const runtime = sandboxRuntime({ runWorkers: 2 })
const tight = sandboxRuntime({ runWorkers: 1, bounds: { work: 300, memoryBytes: 64 * 1024 * 1024 } })
/** A work budget no run reaches before its deadline, however fast the machine (the default's lasts about 0.5 s). */
const ample = sandboxRuntime({ runWorkers: 1, bounds: { work: 1_000_000_000, memoryBytes: 64 * 1024 * 1024 } })
afterAll(async () => {
  await runtime.dispose()
  await tight.dispose()
  await ample.dispose()
})

const output = async (source: string, input: unknown = null) => {
  const exit = await runExit(runtime, runOf(source, input))
  if (Exit.isFailure(exit)) throw new Error(`expected a success, got ${JSON.stringify(exit.cause)}`)
  return exit.value.output
}

const refusal = async (source: string, input: unknown = null, on = runtime) => {
  const exit = await runExit(on, runOf(source, input))
  if (Exit.isSuccess(exit) || exit.cause._tag !== "Fail")
    throw new Error(`expected a failure, got ${JSON.stringify(exit)}`)
  return exit.cause.error
}

const healthy = async () => expect(await output("export default (input: number) => input * 2", 21)).toBe(42)

beforeAll(async () => {
  await healthy()
  await runExit(tight, runOf("export default () => 1"))
}, 60_000)

describe("a run in the sandbox", () => {
  it("calls the default export with the input and gives JSON back", async () => {
    expect(
      await output(
        "export default function (input: { a: number }) { return { twice: input.a * 2, list: [1, 'x', null, true] } }",
        { a: 4 }
      )
    ).toEqual({
      twice: 8,
      list: [1, "x", null, true]
    })
    expect(
      await output("function helper(value: number): number { return value + 1 }\nexport { helper as default }", 1)
    ).toBe(2)
    expect(
      await output(
        "export default function main(input: number): number { return input > 0 ? main(input - 1) + 1 : 0 }",
        5
      )
    ).toBe(5)
  })

  it("pins Date to the run's start and refuses local-time forms", async () => {
    expect(
      await output("export default () => [Date.now(), new Date().toISOString(), new Date('2026-03-04').getUTCDate()]")
    ).toEqual([Date.parse("2026-01-02T03:04:05.678Z"), "2026-01-02T03:04:05.678Z", 4])
    const forms = [
      "new Date(2026, 0, 1)",
      "new Date('2026-03-04T10:00:00')",
      "String(new Date())",
      "`$" + "{new Date()}`",
      "new Date().toLocaleString()",
      "new Date().getHours()",
      "Date()"
    ]
    for (const form of forms) {
      const error = await refusal(`export default () => { return ${form} }`)
      expect(error).toMatchObject({ _tag: "ProgramUnworkable" })
      expect((error as { detail: string }).detail).toMatch(/^the program raised on line 3: TypeError/)
    }
    expect(await output("export default () => new Date('2026-03-04T10:00:00+02:00').toISOString()")).toBe(
      "2026-03-04T08:00:00.000Z"
    )
  })

  it("has no Math.random, eval, Function, Promise, console, timers, Intl, WeakRef or modules", async () => {
    expect(
      await output(
        "export default () => [typeof Math.random, typeof eval, typeof Function, typeof Promise, typeof console, typeof setTimeout, typeof Intl, typeof WeakRef, typeof require, typeof process, typeof fetch]"
      )
    ).toEqual(Array(11).fill("undefined"))
    expect(
      await output(
        "export default () => [[3, 1, 2].toSorted(), Object.groupBy([1, 2, 3], (n: number) => (n % 2 ? 'odd' : 'even')), [...new Set([1, 2]).union(new Set([3]))]]"
      )
    ).toEqual([[1, 2, 3], { odd: [1, 3], even: [2] }, [1, 2, 3]])
  })

  it("names the line of an uncaught error and cuts long words", async () => {
    expect(await refusal("\n\nexport default function () {\n  throw new RangeError('bad')\n}")).toMatchObject({
      _tag: "ProgramUnworkable",
      detail: "the program raised on line 6: RangeError: bad"
    })
    const long = (await refusal("export default () => { throw new Error('x'.repeat(5000)) }")) as { detail: string }
    expect(Buffer.byteLength(long.detail)).toBeLessThanOrEqual(1024)
    expect(long.detail.endsWith("…")).toBe(true)
  })

  it("names the first path of a value that cannot be JSON", async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["({ vat: [{ at: new Date() }] })", "$.vat[0].at holds a Date"],
      ["({ m: new Map() })", "$.m holds a Map"],
      ["[new Set()]", "$[0] holds a Set"],
      ["({ f() { return 1 } })", "$.f holds a function"],
      ["({ n: 1n })", "$.n holds a BigInt"],
      ["({ 'a b': NaN })", '$["a b"] holds NaN'],
      ["[Infinity]", "$[0] holds Infinity"],
      ["({ u: undefined })", "$.u holds undefined"],
      ["[1, , 3]", "$[1] is a hole in the list"],
      [
        "(() => { const a: any = { x: {} }; a.x.self = a; return a })()",
        "$.x.self holds a cycle: a value that contains itself"
      ],
      ["new (class Point { x = 1 })()", "$ holds an instance of Point"],
      ["({ b: new Number(1) })", "$.b holds a boxed number"],
      ["[new Uint8Array(2)]", "$[0] holds a typed array"],
      ["[Symbol('s')]", "$[0] holds a symbol"]
    ]
    for (const [value, path] of cases) {
      expect(await refusal(`export default (): any => ${value}`)).toMatchObject({
        detail: `the program's value cannot be JSON: ${path}`
      })
    }
    let deep = "1"
    for (let level = 0; level < 513; level++) deep = `[${deep}]`
    expect(await refusal(`export default (): any => ${deep}`)).toMatchObject({
      detail: expect.stringContaining("nests deeper than 512 levels")
    })
  })

  it("writes what its fast JSON check is sure of, and names what it is not", async () => {
    let deepest = "1"
    for (let level = 0; level < 512; level++) deepest = `{ "a": ${deepest} }`
    expect(await output(`export default (): any => (${deepest})`)).toEqual(JSON.parse(deepest))
    expect(
      await output(
        "export default (): any => { const x = { n: 1 }; return [x, { y: x, z: [x] }, { get g() { return 2 } }] }"
      )
    ).toEqual([{ n: 1 }, { y: { n: 1 }, z: [{ n: 1 }] }, { g: 2 }])
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["{ (Array.prototype as any)[1] = 5; return [1, , 3] }", "$[1] is a hole in the list"],
      ["({ a: { toJSON: () => 1 } })", "$.a.toJSON holds a function"],
      ["{ let n = 0; return { get a() { return n++ === 0 ? 1 : undefined } } }", "$.a holds undefined"],
      [`{ const a: any = {}; let at = a; for (let i = 0; i < 512; i++) at = at.a = {}; return a }`, "nests deeper"]
    ]
    for (const [body, words] of cases) {
      expect(await refusal(`export default (): any => ${body.startsWith("{") ? body : `(${body})`}`)).toMatchObject({
        detail: expect.stringContaining(words)
      })
    }
  })

  it("refuses output over 1,048,320 bytes", async () => {
    expect(await refusal("export default () => 'x'.repeat(1_048_400)")).toMatchObject({
      detail: expect.stringContaining("at most 1048320 are allowed")
    })
    expect(await output("export default () => 'x'.repeat(1_048_318)")).toHaveLength(1_048_318)
  })
})

describe("escapes and exhaustion end unworkable and leave the process healthy", () => {
  it("keeps the host out of reach", async () => {
    const reach = [
      "(globalThis as any).process?.exit?.(1) ?? Object.getOwnPropertyNames(globalThis).filter((name) => /process|require|module|fetch|console/.test(name)).length",
      "(this as any)?.constructor ?? 'no this'"
    ]
    expect(await output(`export default function (): any { return ${reach[0]} }`)).toBe(0)
    expect(await output(`export default function (this: any): any { return ${reach[1]} }`)).toBe("no this")
    for (const escape of [
      "({}).constructor.constructor('return process')()",
      "(function () {}).constructor('return globalThis')()",
      "Object.getPrototypeOf(function* () {}).constructor('yield 1')",
      "Reflect.getPrototypeOf(async function () {}).constructor('return 1')"
    ]) {
      expect(await refusal(`export default function (): any { return ${escape} }`)).toMatchObject({
        detail:
          "the program raised on line 3: TypeError: generated code is not available: the program may read only its argument"
      })
    }
    expect(await refusal("export default async function () { return await import('fs') }")).toMatchObject({
      _tag: "ProgramUnworkable"
    })
    await healthy()
  })

  it("keeps prototype pollution inside one run", async () => {
    expect(
      await output(
        "export default () => { (Object.prototype as any).polluted = 'yes'; (Array.prototype as any).map = null; Math.max = () => 7; return ({} as any).polluted }"
      )
    ).toBe("yes")
    expect(
      await output("export default () => [({} as any).polluted ?? 'clean', typeof [].map, Math.max(1, 2)]")
    ).toEqual(["clean", "function", 2])
  })

  it("ends an endless loop, a deep recursion and huge allocations as unworkable", async () => {
    expect(await refusal("export default () => { while (true) {} }", null, tight)).toMatchObject({
      detail: "the program used its work budget of 300 checkpoints",
      work: 301
    })
    expect(await refusal("export default function f(n: number): number { return f(n + 1) + 1 }", 0)).toMatchObject({
      detail: "the program raised on line 3: InternalError: stack overflow"
    })
    expect(await refusal("export default () => 'x'.repeat(2 ** 28).length", null, tight)).toMatchObject({
      detail: "the program ran out of memory (64 MiB)"
    })
    expect(
      await refusal("export default () => { const all = []; for (let i = 0; ; i++) all.push([i, i, i]); }", null, tight)
    ).toMatchObject({
      _tag: "ProgramUnworkable"
    })
    expect(await refusal("export default () => new Array(1e9).fill(0).length", null, tight)).toMatchObject({
      _tag: "ProgramUnworkable"
    })
    expect(await refusal("export default () => /(a+)+$/.test('a'.repeat(40) + 'b')", null, tight)).toMatchObject({
      detail: "the program used its work budget of 300 checkpoints"
    })
    await healthy()
  })

  it("gives the same unworkable result and the same work count twice", async () => {
    const first = await refusal("export default () => { while (true) {} }", null, tight)
    expect(await refusal("export default () => { while (true) {} }", null, tight)).toEqual(first)
    const program =
      "export default (input: number) => { let sum = 0; for (let i = 0; i < input; i++) sum += i % 7; return sum }"
    const once = await runExit(runtime, runOf(program, 200_000))
    const twice = await runExit(runtime, runOf(program, 200_000))
    expect(Exit.isSuccess(once) && once.value.work).toBeGreaterThan(10)
    expect(Exit.isSuccess(twice) && twice.value.work).toBe(Exit.isSuccess(once) && once.value.work)
  })

  it("ends a run past its deadline as the deadline, not as the program", async () => {
    const exit = await runExit(ample, runOf("export default () => { while (true) {} }", null, 300))
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("SandboxDeadline")
    await healthy()
  })
})
