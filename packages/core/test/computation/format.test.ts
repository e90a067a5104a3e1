import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultSettings, RuntimeConfig } from "../../src/config/RuntimeConfig.js"
import { computationFormat } from "../../src/formats/computation/computationFormat.js"
import type { FormatEnding } from "../../src/formats/DefinitionFormat.js"
import { Formats } from "../../src/formats/DefinitionFormat.js"
import { FormatsLive } from "../../src/formats/FormatsLive.js"
import { Models } from "../../src/models/Models.js"
import { Sandbox } from "../../src/ports/Sandbox.js"
import * as QuickJsSandbox from "../../src/sandbox/QuickJsSandbox.js"
import * as QuickJsExpressions from "../../src/workflow/expressions/QuickJsExpressions.js"
import { WorkflowEngine } from "../../src/workflow/run/WorkflowEngine.js"
import { computationDocument, invoiceDocument } from "./invoice.js"
import { sandboxRuntime } from "./sandboxFixture.js"

const runtime = sandboxRuntime({ runWorkers: 1 })
afterAll(() => runtime.dispose())

const startedAt = Date.parse("2026-05-06T07:08:09.000Z")
const run = (source: string, input: unknown): Promise<FormatEnding> =>
  runtime.runPromise(
    Effect.flatMap(Sandbox, (sandbox) =>
      computationFormat(sandbox).run({ runId: "r", source, version: 1, input, startedAt })
    )
  )

beforeAll(() => run(computationDocument("export default (input: Json): Json => input"), 1), 60_000)

const invoice = {
  lines: [
    { sku: "a", quantity: 2, unit_cents: 1000, vat_bp: 2000 },
    { sku: "b", quantity: 1, unit_cents: 500, vat_bp: 550 },
    { sku: "c", quantity: 3, unit_cents: 333, vat_bp: 2000 }
  ]
}

describe("a computation run", () => {
  it("gives the invoice example's totals and its record", async () => {
    const ending = await run(invoiceDocument, invoice)
    expect(ending).toMatchObject({
      _tag: "Succeeded",
      output: {
        net_cents: 3499,
        vat: [
          { rate_bp: 550, base_cents: 500, vat_cents: 28 },
          { rate_bp: 2000, base_cents: 2999, vat_cents: 600 }
        ],
        vat_cents: 628,
        gross_cents: 4127
      },
      record: { language: "typescript", input_bytes: JSON.stringify(invoice).length, output_bytes: expect.any(Number) }
    })
    const record = (ending as { record: { work: number; duration_ms: number } }).record
    expect(record.work).toBeGreaterThanOrEqual(0)
    expect(record.duration_ms).toBeLessThan(10_000)
  })

  it("refuses an input its schema refuses, with pointers under /input", async () => {
    const ending = await run(invoiceDocument, { lines: [{ sku: "a", quantity: 0, unit_cents: 1, vat_bp: 1 }] })
    expect(ending).toMatchObject({
      _tag: "Rejected",
      rejection: {
        reason: "invalid_input",
        kind: "input_schema",
        errors: [{ pointer: "/input/lines/0/quantity", detail: "/input/lines/0/quantity must be >= 1." }]
      }
    })
  })

  it("pins the clock a program reads to the run's start", async () => {
    expect(await run(computationDocument("export default (): Json => new Date().toISOString()"), null)).toMatchObject({
      output: "2026-05-06T07:08:09.000Z"
    })
  })

  it("ends unworkable when the output does not fit its schema, naming the first 3 issues", async () => {
    const source = computationDocument(
      "export default (): Json => ({ a: 'x', b: 'x', c: 'x', d: 'x' })\n",
      "output:\n  schema: { type: object, properties: { a: { type: integer }, b: { type: integer }, c: { type: integer }, d: { type: integer } } }\n"
    )
    const ending = await run(source, null)
    expect(ending).toMatchObject({ _tag: "Rejected", rejection: { reason: "conflict", kind: "unworkable" } })
    const rejection = (ending as { rejection: { detail: string; errors: ReadonlyArray<unknown> } }).rejection
    expect(rejection.errors).toHaveLength(3)
    expect(rejection.detail).toBe(
      'The output does not fit the output schema: /output/a must be integer, found the string "x". /output/b must be integer, found the string "x". /output/c must be integer, found the string "x".'
    )
  })

  it("checks a shape's schema", async () => {
    const source = computationDocument("export default (): Json => ({ columns: [] })\n", "output:\n  shape: table\n")
    expect(await run(source, null)).toMatchObject({ rejection: { reason: "conflict", kind: "unworkable" } })
  })

  it("ends a raising program as conflict, unworkable, with the program's line", async () => {
    expect(
      await run(computationDocument("export default (): Json => {\n  throw new Error('no')\n}"), null)
    ).toMatchObject({
      _tag: "Rejected",
      rejection: { reason: "conflict", kind: "unworkable", detail: "the program raised on line 5: Error: no" }
    })
  })
})

describe("FormatsLive", () => {
  const config = Layer.succeed(RuntimeConfig, defaultSettings)
  it("provides every format implemented, computation on the sandbox", async () => {
    const types = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const formats = yield* Formats
          return [...formats.keys()]
        })
      ).pipe(
        Effect.provide(FormatsLive),
        Effect.provide(
          Layer.mergeAll(
            QuickJsSandbox.layer({ runWorkers: 1 }),
            Models.none,
            config,
            WorkflowEngine.layer.pipe(Layer.provide(Layer.merge(config, QuickJsExpressions.layer)))
          )
        )
      )
    )
    expect(types).toEqual(["computation", "interaction", "reasoning", "workflow", "lookup"])
  })
})
