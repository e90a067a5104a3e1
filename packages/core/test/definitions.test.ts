import { Ledger } from "@runledger/core"
import { Effect, Either } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { makeRuntime } from "./runtimeFixture.js"

let fixture: ReturnType<typeof makeRuntime>
beforeEach(async () => {
  fixture = makeRuntime({ studioOrigin: "https://studio.example.com" })
  await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" })
})
afterEach(() => fixture.runtime.dispose())

const inFinance = (key: string, operation: string, input: unknown) =>
  fixture.call(key, operation, input, { playbook: "finance" })
const ok = async (operation: string, input: unknown): Promise<any> => {
  const result = await inFinance("full", operation, input)
  if (Either.isLeft(result)) throw new Error(`${operation} refused: ${JSON.stringify(result.left)}`)
  return result.right.output
}
const refused = async (operation: string, input: unknown) => {
  const result = await inFinance("full", operation, input)
  if (Either.isRight(result)) throw new Error(`${operation} was expected to be refused`)
  return result.left
}
const facts = () =>
  fixture.runtime.runPromise(
    Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 10_000 }))
  )

const doc = "Adds the lines up\nexport default () => 1"
const created = () =>
  ok("create_definition", { type: "computation", name: "total-spend", source: doc, diagram: "none" })

describe("definitions", () => {
  it("creates a function at version 1, active, with its creator, description and Studio link", async () => {
    const definition = await created()
    expect(definition).toMatchObject({
      type: "computation",
      name: "total-spend",
      version: 1,
      status: "active",
      description: "Adds the lines up",
      source: doc,
      diagram: "none",
      created_by: { id: "key:build-bot", name: "build-bot" }
    })
    expect(definition.studio).toContain("computation=total-spend&because=created&version=1")
    const [fact] = (await facts()).filter((positioned) => positioned.fact.type === "definition_created")
    expect(fact.fact.metadata.stream).toBe("playbook/acme/finance/definitions/computation/total-spend")
    expect(fact.fact.metadata.definition).toEqual({ type: "computation", name: "total-spend", version: 1 })
  })

  it("refuses a name taken within the type, even retired, but not in another type", async () => {
    await created()
    expect(
      (await refused("create_definition", { type: "computation", name: "total-spend", source: doc, diagram: "none" }))
        .reason
    ).toBe("conflict")
    await ok("retire_definition", { type: "computation", name: "total-spend" })
    expect(
      (await refused("create_definition", { type: "computation", name: "total-spend", source: doc, diagram: "none" }))
        .reason
    ).toBe("conflict")
    await ok("create_definition", { type: "interaction", name: "total-spend", source: doc, diagram: "none" })
  })

  it("refuses a function without a diagram, a bad diagram, and a workflow with one, in the seed's words", async () => {
    const missing = await refused("create_definition", { type: "computation", name: "total-spend", source: doc })
    expect(missing.errors?.[0]).toEqual({
      pointer: "/diagram",
      detail:
        "Say whether this computation function has a diagram: give diagram as Mermaid source of a flowchart or a state diagram, or the word none when a picture would add nothing"
    })
    for (const diagram of ["sequenceDiagram\n  a->>b: hi", "pie title x", "x".repeat(8193)])
      expect(
        (await refused("create_definition", { type: "computation", name: "total-spend", source: doc, diagram }))
          .errors?.[0].pointer
      ).toBe("/diagram")
    for (const diagram of ["flowchart TD\n  a --> b", "graph LR\n a-->b", "stateDiagram-v2\n [*] --> a"])
      await ok("create_definition", { type: "computation", name: `d-${diagram.length}`, source: doc, diagram })
    const workflow = await refused("create_definition", {
      type: "workflow",
      name: "close-week",
      source: doc,
      diagram: "none"
    })
    expect(workflow.errors?.[0].detail).toMatch(/^A workflow takes no diagram/)
  })

  it("refuses a type whose format this runtime does not run, with unavailable, saving nothing", async () => {
    const before = (await facts()).length
    const refusal = await refused("create_definition", {
      type: "reasoning",
      name: "summarize",
      source: doc,
      diagram: "none"
    })
    expect(refusal.reason).toBe("unavailable")
    expect(refusal.detail).toMatch(/does not run reasoning functions yet/)
    expect((await facts()).length).toBe(before)
  })

  it("reports document issues under /source as Line L, column C: at pointer: message", async () => {
    const refusal = await refused("create_definition", {
      type: "computation",
      name: "total-spend",
      source: "ok\nBROKEN",
      diagram: "none"
    })
    expect(refusal.errors).toEqual([{ pointer: "/source", detail: "Line 2, column 1: at /body: this line is broken" }])
  })

  it("refuses sources over 64 KiB, overviews out of bounds and bad names", async () => {
    const base = { type: "computation", name: "total-spend", source: doc, diagram: "none" }
    expect((await refused("create_definition", { ...base, source: "é".repeat(32_769) })).errors?.[0].pointer).toBe(
      "/source"
    )
    expect((await refused("create_definition", { ...base, overview: "" })).errors?.[0].pointer).toBe("/overview")
    expect((await refused("create_definition", { ...base, overview: "x".repeat(16_385) })).errors?.[0].pointer).toBe(
      "/overview"
    )
    expect((await refused("create_definition", { ...base, name: "Total" })).errors?.[0].pointer).toBe("/name")
    expect((await refused("create_definition", { ...base, type: "spreadsheet" })).errors?.[0].pointer).toBe("/type")
  })

  it("versions changes, records nothing for an identical save, and keeps the overview when left out", async () => {
    await ok("create_definition", {
      type: "computation",
      name: "total-spend",
      source: doc,
      diagram: "none",
      overview: "Why"
    })
    const count = (await facts()).length
    const same = await ok("update_definition", {
      type: "computation",
      name: "total-spend",
      source: doc,
      diagram: "none"
    })
    expect(same.version).toBe(1)
    expect(same.studio).not.toContain("because")
    expect((await facts()).length).toBe(count)
    const changed = await ok("update_definition", {
      type: "computation",
      name: "total-spend",
      source: `${doc}\n`,
      diagram: "none"
    })
    expect(changed).toMatchObject({ version: 2, overview: "Why" })
    expect(changed.studio).toContain("because=updated&version=2")
    const overview = await ok("update_definition", {
      type: "computation",
      name: "total-spend",
      source: `${doc}\n`,
      diagram: "none",
      overview: "New"
    })
    expect(overview.version).toBe(3)
    expect(
      (await refused("update_definition", { type: "computation", name: "nothing-here", source: doc, diagram: "none" }))
        .reason
    ).toBe("not_found")
  })

  it("pauses with a reason and resumes without changing version or updated_at; both idempotent", async () => {
    const definition = await created()
    const paused = await ok("pause_definition", { type: "computation", name: "total-spend", reason: "Checking totals" })
    expect(paused).toMatchObject({
      status: "paused",
      paused_reason: "Checking totals",
      paused_by: { id: "key:build-bot" },
      version: 1
    })
    expect(paused.updated_at).toBe(definition.updated_at)
    const count = (await facts()).length
    await ok("pause_definition", { type: "computation", name: "total-spend" })
    expect((await facts()).length).toBe(count)
    const run = await refused("run_definition", { type: "computation", name: "total-spend", input: {} })
    expect([run.reason, run.kind]).toEqual(["conflict", "paused"])
    const updated = await ok("update_definition", {
      type: "computation",
      name: "total-spend",
      source: `${doc}\n`,
      diagram: "none"
    })
    expect(updated.status).toBe("paused")
    const resumed = await ok("resume_definition", { type: "computation", name: "total-spend" })
    expect(resumed.status).toBe("active")
    expect(resumed.paused_at).toBeUndefined()
    await ok("resume_definition", { type: "computation", name: "total-spend" })
    expect((await facts()).length).toBe(count + 2)
    expect(
      (await refused("pause_definition", { type: "computation", name: "total-spend", reason: "" })).errors?.[0].pointer
    ).toBe("/reason")
  })

  it("retires (refusing edits, runs, pauses and resumes) and restores paused, by the restorer", async () => {
    await created()
    const retired = await ok("retire_definition", { type: "computation", name: "total-spend" })
    expect(retired.status).toBe("retired")
    expect(retired.retired_at).toBeDefined()
    for (const [operation, extra] of [
      ["update_definition", { source: doc, diagram: "none" }],
      ["run_definition", {}],
      ["pause_definition", {}],
      ["resume_definition", {}]
    ] as const) {
      const refusal = await refused(operation, { type: "computation", name: "total-spend", ...extra })
      expect([operation, refusal.reason, refusal.kind]).toEqual([operation, "conflict", "retired"])
    }
    const restored = (await inFinance("limited", "restore_definition", {
      type: "computation",
      name: "total-spend"
    })) as any
    expect(restored.right.output).toMatchObject({ status: "paused", paused_by: { id: "key:limited" }, version: 1 })
    expect(restored.right.output.retired_at).toBeUndefined()
    const count = (await facts()).length
    await ok("restore_definition", { type: "computation", name: "total-spend" })
    await ok("retire_definition", { type: "computation", name: "total-spend" })
    await ok("retire_definition", { type: "computation", name: "total-spend" })
    expect((await facts()).length).toBe(count + 1)
  })

  it("lists a type's definitions without source, overview and diagram; retired only when asked", async () => {
    await created()
    await ok("create_definition", {
      type: "computation",
      name: "another",
      source: "x\nshape: series",
      diagram: "none",
      overview: "o"
    })
    await ok("retire_definition", { type: "computation", name: "another" })
    const listed = await ok("list_definitions", { type: "computation" })
    expect(listed.definitions.map((definition: any) => definition.name)).toEqual(["total-spend"])
    expect(listed.definitions[0].source).toBeUndefined()
    expect(listed.definitions[0].diagram).toBeUndefined()
    const all = await ok("list_definitions", { type: "computation", include_retired: true })
    expect(all.definitions.map((definition: any) => [definition.name, definition.details])).toEqual([
      ["another", { shape: "series" }],
      ["total-spend", undefined]
    ])
    expect((await ok("get_definition", { type: "computation", name: "another" })).overview).toBe("o")
  })

  it("refuses commands in a retired playbook with conflict, kind retired, but still reads it", async () => {
    await created()
    await fixture.call("full", "retire_playbook", { playbook: "finance" })
    const refusal = await refused("create_definition", {
      type: "computation",
      name: "other",
      source: doc,
      diagram: "none"
    })
    expect([refusal.reason, refusal.kind]).toEqual(["conflict", "retired"])
    expect((await ok("get_definition", { type: "computation", name: "total-spend" })).status).toBe("active")
  })

  it("keeps a read-only key to reading definitions", async () => {
    await created()
    expect(
      (
        await inFinance("reader", "create_definition", {
          type: "computation",
          name: "x-y-z",
          source: doc,
          diagram: "none"
        })
      ).pipe(Either.isLeft)
    ).toBe(true)
    expect(
      (await inFinance("reader", "get_definition", { type: "computation", name: "total-spend" })).pipe(Either.isRight)
    ).toBe(true)
  })
})
