import { afterAll, beforeAll, expect, it } from "vitest"
import { invoiceDocument as invoice } from "../../../core/test/computation/invoice.js"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

/** A program that cannot produce its output: it raises. */
const raising = `---
description: Always raises
language: typescript
---
export default function (input: Json): Json {
  throw new Error("no totals for " + JSON.stringify(input));
}
`

/** A computation document around a program body. */
const program = (body: string) => `---\ndescription: Tries something\nlanguage: typescript\n---\n${body}\n`

/** Programs that try to leave the sandbox or exhaust it, and the words each ends unworkable with. */
const escapes: Record<string, [string, RegExp]> = {
  loop: ["export default function (input: Json): Json { while (true) {} }", /work budget of 10000 checkpoints/],
  recursion: [
    "export function deep(n: number): number { return deep(n + 1) + 1 }\nexport default function (input: Json): Json { return deep(0) }",
    /stack overflow/
  ],
  allocation: [
    "export default function (input: Json): Json { return 'x'.repeat(2 ** 28).length }",
    /ran out of memory \(256 MiB\)/
  ],
  "generated-code": [
    "export default function (input: Json): Json { return ({}).constructor.constructor('return process')() }",
    /generated code is not available/
  ],
  "host-function": [
    "export default function (input: Json): Json { const g = globalThis as unknown as Record<string, (code: string) => Json>; return g['req' + 'uire']('fs') }",
    /not a function/
  ],
  "not-json": ["export default function (input: Json): Json { return (() => 1) as unknown as Json }", /JSON/]
}

const lines = {
  lines: [
    { sku: "a", quantity: 2, unit_cents: 1000, vat_bp: 2000 },
    { sku: "b", quantity: 1, unit_cents: 500, vat_bp: 550 }
  ]
}

onEveryStore("definitions and runs over HTTP", (store) => {
  let server: AcceptanceServer
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
  }, 60_000)
  afterAll(() => server?.close())

  /** A new playbook for one test, and the path of its routes. */
  const playbook = () => newPlaybook(server, "pb")
  const save = (base: string, name: string, source: string) =>
    server.send("POST", `${base}/definitions/computation`, { name, source, diagram: "none", overview: "Totals." })

  it("saves a computation function, lists it, reads it, and versions an update", async () => {
    const base = await playbook()
    const created = await save(base, "invoice-totals", invoice)
    expect(created.status).toBe(201)
    expect(created.headers.get("cache-control")).toBe("no-store")
    expect(created.body).toMatchObject({
      type: "computation",
      name: "invoice-totals",
      version: 1,
      status: "active",
      description: "Net, VAT per rate and gross of an invoice, all in cents",
      overview: "Totals.",
      diagram: "none",
      created_by: { id: "local" }
    })
    expect(created.body.input_schema).toMatchObject({ type: "object", required: ["lines"] })
    expect(created.body.output_schema).toMatchObject({ type: "object" })
    const listed = await server.send("GET", `${base}/definitions/computation`)
    expect(listed.body.definitions.map((definition: any) => definition.name)).toEqual(["invoice-totals"])
    expect(listed.body.definitions[0].source).toBeUndefined()
    const read = await server.send("GET", `${base}/definitions/computation/invoice-totals`)
    expect(read.body.source).toBe(invoice)
    const same = await server.send("PUT", `${base}/definitions/computation/invoice-totals`, {
      source: invoice,
      diagram: "none"
    })
    expect(same.body.version).toBe(1)
    const changed = await server.send("PUT", `${base}/definitions/computation/invoice-totals`, {
      source: invoice.replace("all in cents", "in cents"),
      diagram: "flowchart TD\n  lines --> totals"
    })
    expect([changed.status, changed.body.version, changed.body.overview]).toEqual([200, 2, "Totals."])
  })

  it("refuses a document's problems under /source at their lines, and saves nothing", async () => {
    const base = await playbook()
    const before = await server.factCount()
    const refused = await save(base, "broken", invoice.replace("language: typescript", "language: python"))
    expect(refused.status).toBe(422)
    expect(refused.headers.get("content-type")).toBe("application/problem+json")
    expect(refused.body.reason).toBe("invalid_input")
    expect(refused.body.errors[0].pointer).toBe("/source")
    expect(refused.body.errors[0].detail).toMatch(/^Line 3, column \d+: at \/language: /)
    const typeError = await save(base, "typed", invoice.replace("return { net_cents,", "return { net_cents: 'x',"))
    expect(typeError.status).toBe(422)
    expect(typeError.body.errors[0].detail).toMatch(/^Line \d+, column \d+: /)
    expect(await server.factCount()).toBe(before)
  })

  it("refuses the types it does not run yet as unavailable, without Retry-After", async () => {
    const base = await playbook()
    const refused = await server.send("POST", `${base}/definitions/prediction`, {
      name: "think",
      source: "---\n---\n",
      diagram: "none"
    })
    expect(refused.status).toBe(503)
    expect(refused.body.reason).toBe("unavailable")
    expect(refused.headers.get("retry-after")).toBeNull()
  })

  it("runs within the request: the invoice totals, then the same run again under its id", async () => {
    const base = await playbook()
    await save(base, "invoice-totals", invoice)
    const runId = crypto.randomUUID()
    const run = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, {
      input: lines,
      run_id: runId
    })
    expect(run.status).toBe(200)
    expect(run.body).toMatchObject({
      run_id: runId,
      status: "succeeded",
      definition_version: 1,
      output: { net_cents: 2500, vat_cents: 428, gross_cents: 2928 }
    })
    expect(run.body.output.vat).toEqual([
      { rate_bp: 550, base_cents: 500, vat_cents: 28 },
      { rate_bp: 2000, base_cents: 2000, vat_cents: 400 }
    ])
    expect(run.body.record).toMatchObject({ language: "typescript" })
    const facts = await server.factCount()
    const again = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, {
      input: lines,
      run_id: runId
    })
    expect(again.body.output).toEqual(run.body.output)
    expect(await server.factCount()).toBe(facts)
    const other = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, {
      input: { lines: [] },
      run_id: runId
    })
    expect([other.status, other.body.reason]).toEqual([409, "conflict"])
    const read = await server.send("GET", `${base}/runs/${runId}`)
    expect(read.body).toMatchObject({ run_id: runId, status: "succeeded", started_by: { id: "local" } })
  })

  it("refuses an input its schema refuses as 422 input_schema with pointers under /input", async () => {
    const base = await playbook()
    await save(base, "invoice-totals", invoice)
    const refused = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, {
      input: { lines: [{ sku: "a", quantity: 0, unit_cents: 1, vat_bp: 1 }] }
    })
    expect(refused.status).toBe(422)
    expect(refused.body).toMatchObject({ reason: "invalid_input", kind: "input_schema" })
    expect(refused.body.errors[0].pointer).toMatch(/^\/input\/lines\/0\/quantity/)
    expect(refused.body.run_id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("refuses a text no store can keep (U+0000, a lone surrogate) at its pointer, recording nothing", async () => {
    const base = await playbook()
    await save(base, "invoice-totals", invoice)
    const facts = await server.factCount()
    for (const [input, pointer] of [
      [{ lines: [], note: "a\u0000b" }, "/input/note"],
      [{ lines: [{ "\ud800": 1 }] }, "/input/lines/0/\ud800"],
      [{ lines: [], note: "\udc00 alone" }, "/input/note"]
    ] as const) {
      const refused = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, { input })
      expect([refused.status, refused.body.reason, refused.body.kind]).toEqual([422, "invalid_input", undefined])
      expect(refused.body.errors[0].pointer).toBe(pointer)
      expect(refused.body.errors[0].detail).toContain("U+0000 or a lone surrogate")
    }
    expect(await server.factCount()).toBe(facts)
    const paired = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, {
      input: { lines: [], note: "\ud83d\ude00" }
    })
    expect(paired.status).not.toBe(422)
  })

  it("ends a program that raises as 409 unworkable, the same way every time", async () => {
    const base = await playbook()
    await save(base, "raises", raising)
    const first = await server.send("POST", `${base}/definitions/computation/raises/run`, { input: { a: 1 } })
    expect([first.status, first.body.reason, first.body.kind]).toEqual([409, "conflict", "unworkable"])
    expect(first.body.detail).toMatch(/raised on line \d+/)
    const second = await server.send("POST", `${base}/definitions/computation/raises/run`, { input: { a: 1 } })
    expect(second.body.detail).toBe(first.body.detail)
    const read = await server.send("GET", `${base}/runs/${first.body.run_id}`)
    expect(read.body).toMatchObject({ status: "rejected", rejection: { reason: "conflict", kind: "unworkable" } })
  })

  it("refuses runs of a paused or retired function, and of one the playbook does not have", async () => {
    const base = await playbook()
    await save(base, "invoice-totals", invoice)
    const paused = await server.send("POST", `${base}/definitions/computation/invoice-totals/pause`, {
      reason: "Audit"
    })
    expect(paused.body).toMatchObject({ status: "paused", paused_reason: "Audit" })
    const refused = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, { input: lines })
    expect([refused.status, refused.body.kind]).toEqual([409, "paused"])
    await server.send("POST", `${base}/definitions/computation/invoice-totals/resume`)
    await server.send("POST", `${base}/definitions/computation/invoice-totals/retire`)
    const retired = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, { input: lines })
    expect([retired.status, retired.body.kind]).toEqual([409, "retired"])
    const restored = await server.send("POST", `${base}/definitions/computation/invoice-totals/restore`)
    expect(restored.body.status).toBe("paused")
    const missing = await server.send("POST", `${base}/definitions/computation/nothing-here/run`, { input: lines })
    expect(missing.status).toBe(404)
    const badId = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, {
      input: lines,
      run_id: "7"
    })
    expect([badId.status, badId.body.errors[0].pointer]).toEqual([422, "/run_id"])
  })

  it("lists runs, reads their history and the playbook's events, and one event in full", async () => {
    const base = await playbook()
    await save(base, "invoice-totals", invoice)
    const ids: Array<string> = []
    for (let index = 0; index < 3; index++)
      ids.push(
        (await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, { input: lines })).body.run_id
      )
    const page = await server.send("GET", `${base}/runs?limit=2`)
    expect(page.body.runs.map((run: any) => run.run_id)).toEqual([ids[2], ids[1]])
    expect(page.body.runs[0].output).toBeUndefined()
    const rest = await server.send("GET", `${base}/runs?limit=2&cursor=${page.body.next_cursor}`)
    expect([rest.body.runs.map((run: any) => run.run_id), rest.body.has_more, rest.body.next_cursor]).toEqual([
      [ids[0]],
      false,
      null
    ])
    const history = await server.send("GET", `${base}/runs/${ids[0]}/history`)
    expect(history.body.events.map((event: any) => event.type)).toEqual(["run_started", "run_succeeded"])
    const events = await server.send("GET", `${base}/events?limit=100`)
    expect(events.body.events.length).toBe(7)
    expect(events.body.events.at(-1).type).toBe("definition_created")
    const tree = await server.send("GET", `${base}/events?run_id=${ids[1]}&order=asc`)
    expect(tree.body.events.map((event: any) => event.metadata.run_id)).toEqual([ids[1], ids[1]])
    const one = await server.send("GET", `${base}/events/${history.body.events[1].id}`)
    expect(one.body.data.output).toMatchObject({ gross_cents: 2928 })
    expect((await server.send("GET", `${base}/events/${ids[0]}_0`)).status).toBe(422)
    expect((await server.send("GET", `${base}/runs?cursor=${history.body.events[0].id}`)).status).toBe(422)
    const foreign = await server.send(
      "GET",
      `${base}/runs?limit=1&cursor=${(await server.send("GET", `${base}/runs?limit=1`)).body.next_cursor}`
    )
    expect(foreign.status).toBe(200)
    const otherBase = await playbook()
    expect((await server.send("GET", `${otherBase}/runs?cursor=${page.body.next_cursor}`)).status).toBe(422)
  })

  it("refuses to cancel a run that ended within its request, and one the playbook does not have", async () => {
    const base = await playbook()
    await save(base, "invoice-totals", invoice)
    const run = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, { input: lines })
    expect((await server.send("POST", `${base}/runs/${run.body.run_id}/cancel`)).status).toBe(409)
    expect((await server.send("POST", `${base}/runs/${crypto.randomUUID()}/cancel`)).status).toBe(404)
  })

  it("ends escapes and exhaustion as 409 unworkable, the same each time, and serves on", async () => {
    const base = await playbook()
    for (const [name, [body, words]] of Object.entries(escapes)) {
      expect((await save(base, name, program(body))).status).toBe(201)
      const first = await server.send("POST", `${base}/definitions/computation/${name}/run`, { input: {} })
      expect([name, first.status, first.body.reason, first.body.kind]).toEqual([name, 409, "conflict", "unworkable"])
      expect(first.body.detail).toMatch(words)
    }
    const again = await server.send("POST", `${base}/definitions/computation/recursion/run`, { input: {} })
    expect(again.body.detail).toMatch(escapes.recursion![1])
    const globals = program(
      "export default function (input: Json): Json { return Object.getOwnPropertyNames(globalThis).filter((name) => /process|require|fetch|console|setTimeout/.test(name)) }"
    )
    expect((await save(base, "globals", globals)).status).toBe(201)
    const seen = await server.send("POST", `${base}/definitions/computation/globals/run`, { input: {} })
    expect([seen.status, seen.body.output]).toEqual([200, []])
    const polluting = program(
      "export default function (input: Json): Json { (Object.prototype as unknown as Record<string, string>).polluted = 'yes'; return ({} as Record<string, string>).polluted }"
    )
    const reading = program(
      "export default function (input: Json): Json { return ({} as Record<string, string>).polluted ?? 'clean' }"
    )
    await save(base, "polluting", polluting)
    await save(base, "reading", reading)
    expect(
      (await server.send("POST", `${base}/definitions/computation/polluting/run`, { input: {} })).body.output
    ).toBe("yes")
    expect((await server.send("POST", `${base}/definitions/computation/reading/run`, { input: {} })).body.output).toBe(
      "clean"
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const imports = await save(base, "imports", program("import fs from 'fs'\nexport default (input: Json): Json => 1"))
    expect([imports.status, imports.body.errors[0].pointer]).toEqual([422, "/source"])
    expect(imports.body.errors.map((error: any) => error.detail).join(" ")).toContain("no modules")
    await save(base, "invoice-totals", invoice)
    const healthy = await server.send("POST", `${base}/definitions/computation/invoice-totals/run`, { input: lines })
    expect([healthy.status, healthy.body.output.gross_cents]).toEqual([200, 2928])
  }, 120_000)

  it("bounds an input to 256 KiB and 512 levels at /input, and an output to 1,048,320 bytes", async () => {
    const base = await playbook()
    await save(base, "echo", program("export default function (input: Json): Json { return input }"))
    const run = (input: unknown) => server.send("POST", `${base}/definitions/computation/echo/run`, { input })
    const facts = await server.factCount()
    let deep: unknown = 1
    for (let level = 0; level < 513; level++) deep = [deep]
    for (const input of [deep, "x".repeat(262_143)]) {
      const refused = await run(input)
      expect([refused.status, refused.body.errors[0].pointer]).toEqual([422, "/input"])
    }
    expect(await server.factCount()).toBe(facts)
    let fits: unknown = 1
    for (let level = 0; level < 511; level++) fits = [fits]
    expect((await run(fits)).status).toBe(200)
    expect(
      (
        await save(
          base,
          "large",
          program("export default function (input: Json): Json { return 'x'.repeat(input as number) }")
        )
      ).status
    ).toBe(201)
    const large = (length: number) =>
      server.send("POST", `${base}/definitions/computation/large/run`, { input: length })
    expect((await large(1_048_318)).status).toBe(200)
    const over = await large(1_048_319)
    expect([over.status, over.body.kind]).toEqual([409, "unworkable"])
    expect(over.body.detail).toMatch(/output holds at least 1048321 bytes/)
  })
})
