import { afterAll, describe, expect, it } from "vitest"
import { readPath } from "../../../src/workflow/expressions/pathExpressions.js"
import { evaluate, expressionRuntime } from "./expressionFixture.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

/** A variable's value with every kind of JSON value a path may meet. */
const variables = {
  $data: { a: 1, text: "abc", list: [1, 2, 3], nested: { b: { c: null } }, flag: false, empty: {} },
  $context: {}
}

/** `{ value }` of an evaluation in the sandbox itself, through its module, or the failure's tag. */
const inSandbox = async (script: string) => {
  const outcome = await evaluate(runtime, `${script} ?? (void 0)`, { variables })
  return outcome._tag === "Right" ? { value: outcome.right.value } : outcome.left._tag
}

describe("expressions that only read a path", () => {
  const answered = [
    "$data",
    "$data.a",
    " $data . nested . b ",
    "$data.nested.b.c",
    "$data.text.length",
    "$data.list.length",
    "$data.missing",
    "$data.empty.anything",
    "$context",
    "$data.flag"
  ]
  for (const script of answered)
    it(`${script} gives what the sandbox gives`, async () => {
      expect(readPath(script, variables)).toEqual(await inSandbox(script))
    })

  const leftToTheSandbox = [
    "$data.missing.deeper",
    "$data.a.b",
    "$data.constructor",
    "$data.toString",
    "$data.list.map",
    "$data.text.toUpperCase",
    "$nope",
    "$data.a + 1",
    "$data['a']",
    "($data.a)"
  ]
  for (const script of leftToTheSandbox)
    it(`${script} is left to the sandbox`, () => {
      expect(readPath(script, variables)).toBeUndefined()
    })
})
