import { afterAll, beforeAll, expect, it } from "vitest"
import { invoiceDocument as invoice } from "../../../core/test/computation/invoice.js"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

const x = "$" + "{"

/** A workflow calling the invoice function in its second and third steps. */
const billing = `document:
  dsl: '1.0.3'
  namespace: acceptance
  name: billing
  version: '1.0.0'
do:
  - prepare:
      set:
        lines: '${x} $input.lines }'
  - total:
      call: run_definition
      with: { type: computation, name: invoice-totals, input: '${x} ({ lines: $data.lines }) }' }
  - again:
      call: run_definition
      with: { type: computation, name: invoice-totals, input: '${x} ({ lines: $input.lines }) }' }
`

/** A computation function whose output takes the series shape. */
const series = `---
description: A flat series
language: typescript
output:
  shape: series
---
export default function (input: Json): Output {
  return { observed: [], predicted: [] } as unknown as Output
}
`

onEveryStore("definitions over HTTP, the rules of every type", (store) => {
  let server: AcceptanceServer
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
  }, 60_000)
  afterAll(() => server?.close())

  const playbook = () => newPlaybook(server, "defs")
  const save = (base: string, name: string, fields: Record<string, unknown> = {}) =>
    server.send("POST", `${base}/definitions/computation`, { name, source: invoice, diagram: "none", ...fields })
  const change = (base: string, name: string, fields: Record<string, unknown>) =>
    server.send("PUT", `${base}/definitions/computation/${name}`, { source: invoice, diagram: "none", ...fields })
  const lifecycle = (base: string, name: string, step: string, body?: unknown) =>
    server.send("POST", `${base}/definitions/computation/${name}/${step}`, body)
  /** The types of the playbook's definition facts, oldest first. */
  const definitionFacts = async (base: string) =>
    (await server.send("GET", `${base}/events?order=asc&limit=100`)).body.events
      .map((event: any) => event.type)
      .filter((type: string) => type.startsWith("definition_"))

  it("refuses names outside the playbook id rule at /name, and takes one at the rule's bounds", async () => {
    const base = await playbook()
    for (const name of ["ab", "Invoice", "1-invoice", "-invoice", "in_voice", `a${"b".repeat(48)}`]) {
      const refused = await save(base, name)
      expect([name, refused.status, refused.body.errors?.[0]?.pointer]).toEqual([name, 422, "/name"])
    }
    expect((await save(base, "abc")).status).toBe(201)
    expect((await save(base, `a${"b".repeat(47)}`)).status).toBe(201)
  })

  it("keeps a name unique within its type and playbook, a retired one included, but not across types", async () => {
    const base = await playbook()
    expect((await save(base, "invoice-totals")).status).toBe(201)
    const taken = await save(base, "invoice-totals")
    expect([taken.status, taken.body.reason]).toEqual([409, "conflict"])
    await lifecycle(base, "invoice-totals", "retire")
    const retired = await save(base, "invoice-totals")
    expect([retired.status, retired.body.reason]).toEqual([409, "conflict"])
    expect(retired.body.detail).toContain("restore_definition")
    const workflow = await server.send("POST", `${base}/definitions/workflow`, {
      name: "invoice-totals",
      source: billing
    })
    expect(workflow.status, JSON.stringify(workflow.body)).toBe(201)
    expect((await save(await playbook(), "invoice-totals")).status).toBe(201)
  })

  it("refuses a source over 65,536 UTF-8 bytes and an overview out of 1 character to 16 KiB", async () => {
    const base = await playbook()
    const before = await server.factCount()
    const padded = (bytes: number) => `${invoice}//${"é".repeat(Math.ceil((bytes - invoice.length - 2) / 2))}\n`
    const source = await save(base, "too-long", { source: padded(65_537) })
    expect([source.status, source.body.errors[0].pointer]).toEqual([422, "/source"])
    for (const overview of ["", "é".repeat(8_193)]) {
      const refused = await save(base, "overview", { overview })
      expect([refused.status, refused.body.errors[0].pointer]).toEqual([422, "/overview"])
    }
    expect(await server.factCount()).toBe(before)
    expect((await save(base, "overview", { overview: "é".repeat(8_192) })).status).toBe(201)
  })

  it("refuses a function's missing or foreign diagram and a workflow's diagram in the seed's words", async () => {
    const base = await playbook()
    const before = await server.factCount()
    const missing = await server.send("POST", `${base}/definitions/computation`, { name: "totals", source: invoice })
    expect([missing.status, missing.body.errors[0]]).toEqual([
      422,
      expect.objectContaining({
        pointer: "/diagram",
        detail:
          "Say whether this computation function has a diagram: give diagram as Mermaid source of a flowchart or a state diagram, or the word none when a picture would add nothing"
      })
    ])
    const foreign = await save(base, "totals", { diagram: "sequenceDiagram\n  a->>b: hi" })
    expect(foreign.body.errors[0].detail).toMatch(/flowchart.*state diagram.*none/)
    const large = await save(base, "totals", { diagram: `flowchart TD\n${"  a --> b\n".repeat(1_000)}` })
    expect(large.body.errors[0].detail).toContain("8,192")
    const workflow = await server.send("POST", `${base}/definitions/workflow`, {
      name: "billing",
      source: billing,
      diagram: "none"
    })
    expect([workflow.status, workflow.body.errors[0].pointer]).toEqual([422, "/diagram"])
    expect(workflow.body.errors[0].detail).toMatch(/^A workflow takes no diagram, since .*Studio draws a workflow from/)
    expect(await server.factCount()).toBe(before)
    for (const diagram of ["flowchart TD\n  a --> b", "graph LR\n  a --> b", "stateDiagram-v2\n  [*] --> a", "none"])
      expect((await save(base, `totals-${crypto.randomUUID().slice(0, 4)}`, { diagram })).status).toBe(201)
  })

  it("versions a change of source, overview or diagram; an identical save records nothing", async () => {
    const base = await playbook()
    const created = await save(base, "invoice-totals", { overview: "Totals." })
    const facts = await server.factCount()
    for (const same of [{}, { overview: "Totals." }]) {
      const again = await change(base, "invoice-totals", same)
      expect([again.status, again.body.version, again.body.overview]).toEqual([200, 1, "Totals."])
    }
    expect(await server.factCount()).toBe(facts)
    const overview = await change(base, "invoice-totals", { overview: "The totals." })
    const diagram = await change(base, "invoice-totals", { diagram: "flowchart TD\n  lines --> totals" })
    const source = await change(base, "invoice-totals", {
      source: `${invoice}\n`,
      diagram: "flowchart TD\n  lines --> totals"
    })
    expect([overview.body.version, diagram.body.version, source.body.version]).toEqual([2, 3, 4])
    expect([source.body.overview, source.body.diagram]).toEqual(["The totals.", "flowchart TD\n  lines --> totals"])
    expect(source.body.created_by).toEqual(created.body.created_by)
    expect(source.body.created_at).toBe(created.body.created_at)
    expect(source.body.updated_at >= created.body.updated_at).toBe(true)
    expect(await definitionFacts(base)).toEqual([
      "definition_created",
      "definition_updated",
      "definition_updated",
      "definition_updated"
    ])
    const missing = await server.send("PUT", `${base}/definitions/computation/nothing-here`, {
      source: invoice,
      diagram: "none"
    })
    expect(missing.status).toBe(404)
  })

  it("pauses with a reason, keeps version and updated_at, and resumes; both safe to retry", async () => {
    const base = await playbook()
    const created = (await save(base, "invoice-totals")).body
    const paused = await lifecycle(base, "invoice-totals", "pause", { reason: "Checking the rates" })
    expect(paused.body).toMatchObject({
      status: "paused",
      paused_reason: "Checking the rates",
      paused_by: { id: "local", name: expect.any(String) },
      version: 1,
      updated_at: created.updated_at
    })
    expect(Date.parse(paused.body.paused_at)).not.toBeNaN()
    const facts = await server.factCount()
    expect((await lifecycle(base, "invoice-totals", "pause")).body.status).toBe("paused")
    expect(await server.factCount()).toBe(facts)
    const updated = await change(base, "invoice-totals", { source: `${invoice}\n` })
    expect([updated.body.status, updated.body.version, updated.body.paused_reason]).toEqual([
      "paused",
      2,
      "Checking the rates"
    ])
    const resumed = await lifecycle(base, "invoice-totals", "resume")
    expect(resumed.body.status).toBe("active")
    for (const field of ["paused_at", "paused_by", "paused_reason"]) expect(resumed.body[field]).toBeUndefined()
    const count = await server.factCount()
    await lifecycle(base, "invoice-totals", "resume")
    expect(await server.factCount()).toBe(count)
    for (const reason of ["", "r".repeat(1_025)]) {
      const refused = await lifecycle(base, "invoice-totals", "pause", { reason })
      expect([refused.status, refused.body.errors[0].pointer]).toEqual([422, "/reason"])
    }
    expect(await definitionFacts(base)).toEqual([
      "definition_created",
      "definition_paused",
      "definition_updated",
      "definition_resumed"
    ])
  })

  it("retires (refusing edits, runs, pauses and resumes, kind retired) and restores paused at its version", async () => {
    const base = await playbook()
    await save(base, "invoice-totals")
    await change(base, "invoice-totals", { overview: "Second." })
    const retired = await lifecycle(base, "invoice-totals", "retire")
    expect(retired.body.status).toBe("retired")
    expect(Date.parse(retired.body.retired_at)).not.toBeNaN()
    expect((await server.send("GET", `${base}/definitions/computation/invoice-totals`)).body.status).toBe("retired")
    const facts = await server.factCount()
    for (const [refused, what] of [
      [await change(base, "invoice-totals", { overview: "Third." }), "update"],
      [await lifecycle(base, "invoice-totals", "run", { input: {} }), "run"],
      [await lifecycle(base, "invoice-totals", "pause"), "pause"],
      [await lifecycle(base, "invoice-totals", "resume"), "resume"]
    ] as const)
      expect([what, refused.status, refused.body.reason, refused.body.kind]).toEqual([what, 409, "conflict", "retired"])
    await lifecycle(base, "invoice-totals", "retire")
    expect(await server.factCount()).toBe(facts)
    const restored = await lifecycle(base, "invoice-totals", "restore")
    expect(restored.body).toMatchObject({
      status: "paused",
      version: 2,
      overview: "Second.",
      paused_by: { id: "local" }
    })
    expect(restored.body.retired_at).toBeUndefined()
    const count = await server.factCount()
    await lifecycle(base, "invoice-totals", "restore")
    expect(await server.factCount()).toBe(count)
    const paused = await lifecycle(base, "invoice-totals", "run", { input: {} })
    expect([paused.status, paused.body.kind]).toEqual([409, "paused"])
    await lifecycle(base, "invoice-totals", "resume")
    const run = await lifecycle(base, "invoice-totals", "run", {
      input: { lines: [{ sku: "a", quantity: 1, unit_cents: 100, vat_bp: 0 }] }
    })
    expect([run.status, run.body.definition_version]).toEqual([200, 2])
    expect(await definitionFacts(base)).toEqual([
      "definition_created",
      "definition_updated",
      "definition_retired",
      "definition_restored",
      "definition_resumed"
    ])
    const missing = await lifecycle(base, "nothing-here", "retire")
    expect(missing.status).toBe(404)
  })

  it("carries schemas, details.shape and used_by; the list leaves out source, overview, diagram and used_by", async () => {
    const base = await playbook()
    const invoiceSaved = (await save(base, "invoice-totals", { overview: "Totals." })).body
    expect(invoiceSaved.input_schema).toMatchObject({ required: ["lines"] })
    expect(invoiceSaved.details).toBeUndefined()
    expect(invoiceSaved.used_by).toBeUndefined()
    const shaped = (await save(base, "flat-series", { source: series })).body
    expect(shaped.details).toEqual({ shape: "series" })
    expect(shaped.output_schema).toMatchObject({ type: "object" })
    const shapedRun = await server.send("POST", `${base}/definitions/computation/flat-series/run`, { input: {} })
    const runRead = await server.send("GET", `${base}/runs/${shapedRun.body.run_id}`)
    expect(runRead.body.output_shape).toBe("series")
    const plainRun = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, {
      input: { lines: [] }
    })
    expect(plainRun.body).not.toHaveProperty("output_shape")
    expect(
      (await server.send("POST", `${base}/definitions/workflow`, { name: "billing", source: billing })).status
    ).toBe(201)
    const reader = await server.send("POST", `${base}/definitions/lookup`, {
      name: "latest-totals",
      source: "---\nruns:\n  type: computation\n  name: invoice-totals\n---\n",
      diagram: "none"
    })
    expect(reader.status).toBe(201)
    const read = await server.send("GET", `${base}/definitions/computation/invoice-totals`)
    expect(read.body.used_by).toEqual([
      {
        type: "workflow",
        name: "billing",
        relation: "calls",
        steps: [
          { number: 2, name: "total" },
          { number: 3, name: "again" }
        ]
      },
      { type: "lookup", name: "latest-totals", relation: "reads" }
    ])
    const listed = (await server.send("GET", `${base}/definitions/computation`)).body.definitions
    expect(listed.map((definition: any) => [definition.name, definition.details])).toEqual([
      ["flat-series", { shape: "series" }],
      ["invoice-totals", undefined]
    ])
    for (const field of ["source", "overview", "diagram", "used_by"])
      expect(listed.map((definition: any) => definition[field])).toEqual([undefined, undefined])
    await lifecycle(base, "flat-series", "retire")
    const active = (await server.send("GET", `${base}/definitions/computation`)).body.definitions
    expect(active.map((definition: any) => definition.name)).toEqual(["invoice-totals"])
    const all = (await server.send("GET", `${base}/definitions/computation?include_retired=true`)).body.definitions
    expect(all.map((definition: any) => definition.name)).toEqual(["flat-series", "invoice-totals"])
    const paused = await server.send("POST", `${base}/definitions/lookup/latest-totals/pause`)
    expect(paused.body.used_by).toBeUndefined()
    expect((await lifecycle(base, "invoice-totals", "pause")).body.used_by).toHaveLength(2)
    await server.send("POST", `${base}/definitions/workflow/billing/retire`)
    await server.send("POST", `${base}/definitions/lookup/latest-totals/retire`)
    expect((await server.send("GET", `${base}/definitions/computation/invoice-totals`)).body.used_by).toBeUndefined()
  })

  for (const type of ["prediction", "generation"])
    it(`refuses a ${type} function at save as unavailable, in words that say it is not run yet`, async () => {
      const base = await playbook()
      const before = await server.factCount()
      const refused = await server.send("POST", `${base}/definitions/${type}`, {
        name: "not-yet",
        source: "---\ndescription: Not yet\n---\n",
        diagram: "none"
      })
      expect([refused.status, refused.body.reason]).toEqual([503, "unavailable"])
      expect(refused.body.detail).toContain(`does not run ${type} functions yet`)
      expect(await server.factCount()).toBe(before)
      expect((await server.send("GET", `${base}/definitions/${type}`)).body.definitions).toEqual([])
    })
})
