import { declare, dispatch, type Operation } from "@runledger/core"
import { Effect, Either, Schema } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { makeRuntime } from "./runtimeFixture.js"

let fixture: ReturnType<typeof makeRuntime>
afterEach(() => fixture?.runtime.dispose())

/** A playbook-scoped command for the pipeline's own checks. */
const touch: Operation = declare({
  name: "touch_playbook",
  title: "Touch",
  description: "A test command inside a playbook.",
  tag: "test",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/touch" },
  input: Schema.Struct({
    count: Schema.Number,
    nested: Schema.optional(Schema.Struct({ list: Schema.Array(Schema.String) }))
  }),
  output: Schema.Struct({ playbook: Schema.String, count: Schema.Number }),
  permission: "playbook:write",
  served: { http: true, mcp: ["root", "playbook"] },
  summarize: () => "Touched.",
  handle: (input, context) => Effect.succeed({ playbook: context.playbook!.id, count: input.count })
})

const run = async (key: string, playbook: string | undefined, input: unknown) => {
  const caller = await fixture.callerOf(key)
  return fixture.runtime.runPromise(
    Effect.either(
      dispatch({ operation: touch, caller, input, origin: "http://127.0.0.1", ...(playbook ? { playbook } : {}) })
    )
  )
}

describe("the dispatcher", () => {
  it("runs a playbook command with the playbook as it stands", async () => {
    fixture = makeRuntime()
    await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" })
    const result = await run("full", "finance", { count: 2 })
    expect(Either.getOrThrow(result).output).toEqual({ playbook: "finance", count: 2 })
  })

  it("refuses a command in a retired playbook with conflict, kind retired, before decoding", async () => {
    fixture = makeRuntime()
    await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" })
    await fixture.call("full", "retire_playbook", { playbook: "finance" })
    const result = await run("full", "finance", { wrong: true })
    expect(Either.isLeft(result) && [result.left.reason, result.left.kind]).toEqual(["conflict", "retired"])
  })

  it("refuses a missing playbook, a playbook outside a limited key, and a missing permission", async () => {
    fixture = makeRuntime()
    await fixture.call("full", "create_playbook", { playbook: "hr-team", name: "HR" })
    const missing = await run("full", "nowhere", { count: 1 })
    expect(Either.isLeft(missing) && missing.left.reason).toBe("not_found")
    const outside = await run("limited", "hr-team", { count: 1 })
    expect(Either.isLeft(outside) && outside.left.reason).toBe("forbidden")
    const reader = await run("reader", "hr-team", { count: 1 })
    expect(Either.isLeft(reader) && reader.left.reason).toBe("forbidden")
  })

  it("reports every input issue at its JSON pointer, escaping ~ and /", async () => {
    fixture = makeRuntime()
    await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" })
    const result = await run("full", "finance", { count: "two", nested: { list: ["a", 3] }, "a/b~c": 1 })
    if (Either.isRight(result)) throw new Error("expected a refusal")
    expect(result.left.reason).toBe("invalid_input")
    expect(result.left.errors?.map((error) => error.pointer).sort()).toEqual(["/a~1b~0c", "/count", "/nested/list/1"])
    for (const error of result.left.errors ?? []) expect(error.detail.length).toBeGreaterThan(10)
  })
})
