import { Ledger } from "@runledger/core"
import { Effect, Either } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { makeRuntime } from "./runtimeFixture.js"

type Fixture = ReturnType<typeof makeRuntime>
let fixture: Fixture
afterEach(() => fixture?.runtime.dispose())

const output = (result: Either.Either<{ output: unknown }, unknown>): any => {
  if (Either.isLeft(result)) throw new Error(`refused: ${JSON.stringify(result.left)}`)
  return result.right.output
}
const refusal = (
  result: Either.Either<unknown, { reason: string; kind?: string; errors?: ReadonlyArray<{ pointer: string }> }>
) => {
  if (Either.isRight(result)) throw new Error("expected a refusal")
  return result.left
}
const factCount = () =>
  fixture.runtime.runPromise(
    Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 100_000 })).pipe(
      Effect.map((facts) => facts.length)
    )
  )

describe("playbooks", () => {
  it("creates a playbook, active and empty, trimming its name and description", async () => {
    fixture = makeRuntime()
    const created = output(
      await fixture.call("full", "create_playbook", {
        playbook: "finance",
        name: "  Finance  ",
        description: " Books "
      })
    )
    expect(created).toMatchObject({
      id: "finance",
      name: "Finance",
      description: "Books",
      status: "active",
      created_by: { id: "key:build-bot", name: "build-bot" }
    })
    expect(created.created_at).toBe(created.updated_at)
    expect(created.studio).toBeUndefined()
    expect(created.retired_at).toBeUndefined()
  })

  it("links to Studio only when a Studio origin is set and the runtime is https or local", async () => {
    fixture = makeRuntime({ studioOrigin: "https://studio.example.com" })
    const created = output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    expect(created.studio).toBe(
      "https://studio.example.com/?server=http%3A%2F%2F127.0.0.1%3A4100&src=agent&playbook=finance"
    )
    await fixture.runtime.dispose()
    fixture = makeRuntime({ studioOrigin: "https://studio.example.com", publicUrl: "http://runtime.example.com" })
    const plain = output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    expect(plain.studio).toBeUndefined()
  })

  it("refuses ids, names and descriptions outside their rules, at their pointers, recording nothing", async () => {
    fixture = makeRuntime()
    const cases: Array<[unknown, string]> = [
      [{ playbook: "ab", name: "x" }, "/playbook"],
      [{ playbook: "1abc", name: "x" }, "/playbook"],
      [{ playbook: "Finance", name: "x" }, "/playbook"],
      [{ playbook: `a${"b".repeat(48)}`, name: "x" }, "/playbook"],
      [{ playbook: "finance", name: "   " }, "/name"],
      [{ playbook: "finance", name: "x".repeat(101) }, "/name"],
      [{ playbook: "finance", name: "x", description: "d".repeat(2001) }, "/description"],
      [{ playbook: "finance", name: "x", extra: true }, "/extra"],
      [{ name: "x" }, "/playbook"],
      [{ playbook: "finance", name: 5 }, "/name"]
    ]
    for (const [input, pointer] of cases) {
      const refused = refusal(await fixture.call("full", "create_playbook", input))
      expect(refused.reason).toBe("invalid_input")
      expect(refused.errors?.map((error) => error.pointer)).toContain(pointer)
    }
    expect(await factCount()).toBe(0)
  })

  it("accepts a name of exactly 100 characters and an id of 48", async () => {
    fixture = makeRuntime()
    const id = `a${"b".repeat(47)}`
    const created = output(await fixture.call("full", "create_playbook", { playbook: id, name: "é".repeat(100) }))
    expect(created.id).toBe(id)
  })

  it("refuses an id the org has or had, even once retired", async () => {
    fixture = makeRuntime()
    output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    expect(refusal(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Again" })).reason).toBe(
      "conflict"
    )
    output(await fixture.call("full", "retire_playbook", { playbook: "finance" }))
    expect(refusal(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Again" })).reason).toBe(
      "conflict"
    )
  })

  it("answers one of two concurrent creations of the same id with conflict", async () => {
    fixture = makeRuntime()
    const results = await Promise.all(
      Array.from({ length: 5 }, () => fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    )
    expect(results.filter(Either.isRight).length).toBe(1)
    expect(results.filter(Either.isLeft).map((result) => refusal(result).reason)).toEqual(Array(4).fill("conflict"))
  })

  it("updates the fields it is given, records nothing for no change, and saves or removes the page", async () => {
    fixture = makeRuntime()
    output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    const before = await factCount()
    const same = output(await fixture.call("full", "update_playbook", { playbook: "finance", name: " Finance " }))
    expect(same.name).toBe("Finance")
    expect(await factCount()).toBe(before)
    const renamed = output(await fixture.call("full", "update_playbook", { playbook: "finance", description: "Books" }))
    expect(renamed).toMatchObject({ name: "Finance", description: "Books" })
    const paged = output(await fixture.call("full", "update_playbook", { playbook: "finance", page: "title: Books\n" }))
    expect(paged.page).toEqual({ source: "title: Books\n" })
    expect(output(await fixture.call("full", "get_playbook", { playbook: "finance" })).page).toEqual({
      source: "title: Books\n"
    })
    expect(output(await fixture.call("full", "list_playbooks", {})).playbooks[0].page).toBeUndefined()
    const unpaged = output(await fixture.call("full", "update_playbook", { playbook: "finance", page: null }))
    expect(unpaged.page).toBeUndefined()
    expect(await factCount()).toBe(before + 3)
  })

  it("refuses an update with nothing to change, a page that is not a YAML mapping, and a page over 64 KiB", async () => {
    fixture = makeRuntime()
    output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    expect(refusal(await fixture.call("full", "update_playbook", { playbook: "finance" })).reason).toBe("invalid_input")
    const broken = refusal(await fixture.call("full", "update_playbook", { playbook: "finance", page: "a: [1, 2\n" }))
    expect(broken.errors?.[0].pointer).toBe("/page")
    expect(JSON.stringify(broken)).toMatch(/Line \d+, column \d+/)
    const big = refusal(
      await fixture.call("full", "update_playbook", { playbook: "finance", page: `a: "${"x".repeat(65_536)}"` })
    )
    expect(big.errors?.[0].pointer).toBe("/page")
  })

  it("retires and restores, idempotently, and refuses updates while retired", async () => {
    fixture = makeRuntime()
    output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    const retired = output(await fixture.call("full", "retire_playbook", { playbook: "finance" }))
    expect(retired.status).toBe("retired")
    expect(retired.retired_at).toBeDefined()
    const count = await factCount()
    output(await fixture.call("full", "retire_playbook", { playbook: "finance" }))
    expect(await factCount()).toBe(count)
    expect(refusal(await fixture.call("full", "update_playbook", { playbook: "finance", name: "X" })).reason).toBe(
      "conflict"
    )
    expect(output(await fixture.call("full", "get_playbook", { playbook: "finance" })).status).toBe("retired")
    expect(output(await fixture.call("full", "list_playbooks", {})).playbooks).toEqual([])
    expect(output(await fixture.call("full", "list_playbooks", { include_retired: true })).playbooks).toHaveLength(1)
    const restored = output(await fixture.call("full", "restore_playbook", { playbook: "finance" }))
    expect(restored.status).toBe("active")
    expect(restored.retired_at).toBeUndefined()
    const again = await factCount()
    output(await fixture.call("full", "restore_playbook", { playbook: "finance" }))
    expect(await factCount()).toBe(again)
  })

  it("answers not_found for a playbook the org does not have", async () => {
    fixture = makeRuntime()
    for (const operation of ["get_playbook", "retire_playbook", "restore_playbook"])
      expect(refusal(await fixture.call("full", operation, { playbook: "nowhere" })).reason).toBe("not_found")
    expect(refusal(await fixture.call("full", "update_playbook", { playbook: "nowhere", name: "x" })).reason).toBe(
      "not_found"
    )
    expect(refusal(await fixture.call("full", "render_playbook_page", {}, { playbook: "nowhere" })).reason).toBe(
      "not_found"
    )
  })

  it("welcomes a caller who may make the first playbook, and nobody else", async () => {
    fixture = makeRuntime()
    const welcomed = await fixture.call("full", "list_playbooks", {})
    expect(output(welcomed).welcome).toMatch(/^This organization has no playbooks yet\./)
    expect(Either.isRight(welcomed) && welcomed.right.relay).toBe(output(welcomed).welcome)
    expect(output(await fixture.call("reader", "list_playbooks", {})).welcome).toBeUndefined()
    expect(output(await fixture.call("limited", "list_playbooks", {})).welcome).toBeUndefined()
    output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    output(await fixture.call("full", "retire_playbook", { playbook: "finance" }))
    expect(output(await fixture.call("full", "list_playbooks", {})).welcome).toBeUndefined()
  })

  it("keeps a limited key to its playbooks and a read-only key to reading", async () => {
    fixture = makeRuntime()
    output(await fixture.call("full", "create_playbook", { playbook: "hr-team", name: "HR" }))
    expect(refusal(await fixture.call("limited", "create_playbook", { playbook: "hr-two", name: "HR" })).reason).toBe(
      "forbidden"
    )
    output(await fixture.call("limited", "create_playbook", { playbook: "finance", name: "Finance" }))
    expect(
      output(await fixture.call("limited", "list_playbooks", {})).playbooks.map((p: { id: string }) => p.id)
    ).toEqual(["finance"])
    expect(refusal(await fixture.call("limited", "get_playbook", { playbook: "hr-team" })).reason).toBe("forbidden")
    expect(refusal(await fixture.call("reader", "create_playbook", { playbook: "sales", name: "Sales" })).reason).toBe(
      "forbidden"
    )
    expect(output(await fixture.call("reader", "get_playbook", { playbook: "finance" })).id).toBe("finance")
    expect(
      refusal(await fixture.call("other-org", "get_playbook", { playbook: "finance" }, { org: "acme" })).reason
    ).toBe("forbidden")
  })

  it("rebuilds the playbooks view from the facts to the same documents", async () => {
    fixture = makeRuntime()
    output(await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" }))
    output(await fixture.call("full", "create_playbook", { playbook: "sales", name: "Sales" }))
    output(await fixture.call("full", "update_playbook", { playbook: "sales", page: "a: 1" }))
    output(await fixture.call("full", "retire_playbook", { playbook: "finance" }))
    const before = output(await fixture.call("full", "list_playbooks", { include_retired: true }))
    const { Views } = await import("@runledger/core")
    await fixture.runtime.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
    expect(output(await fixture.call("full", "list_playbooks", { include_retired: true }))).toEqual(before)
  })
})
