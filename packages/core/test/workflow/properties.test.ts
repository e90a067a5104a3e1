// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { readWorkflow } from "../../src/formats/workflow/readWorkflow.js"
import { invoiceApproval } from "./invoiceApproval.js"
import { header } from "./workflowFixture.js"

/** Pieces of workflow YAML, so random documents reach deep into the reader rather than stop at the YAML. */
const fragment = fc.constantFrom(
  "do:",
  "  - a:",
  "  - b:",
  "      set:",
  "        n: ${ $data.n + 1 }",
  "        m: '${ $nope }'",
  "        p: 'x ${ y }'",
  "      wait: PT1S",
  "      wait: P1Y",
  "      then: b",
  "      then: end",
  "      if: $input.x",
  "      call: run_definition",
  "      with: { type: lookup, name: find-it }",
  "      for: { in: $data.xs }",
  "      do:",
  "        - c:",
  "            raise: { error: nope }",
  "      try:",
  "      catch: { as: e, retry: { delay: PT1S } }",
  "      fork: { branches: [] }",
  "      listen: { to: { one: { with: { type: x } } } }",
  "      emit: { event: { with: { type: t, source: /x } } }",
  "schedule:",
  "  cron: 'CRON_TZ=Europe/Paris 0 9 * * *'",
  "  every: PT1M",
  "use:",
  "  errors: { late: { type: https://x.example/late, status: 408 } }",
  "&a x",
  "*a",
  "!tag x",
  "'unclosed",
  "- [",
  "  \t",
  "é: ü"
)

const documents = fc.oneof(
  fc.array(fragment, { maxLength: 30 }).map((lines) => `${header}${lines.join("\n")}\n`),
  fc.array(fc.oneof(fragment, fc.string({ maxLength: 20 })), { maxLength: 20 }).map((lines) => lines.join("\n")),
  fc
    .tuple(fc.nat(invoiceApproval.length), fc.nat(40), fc.string({ maxLength: 12 }))
    .map(([at, cut, text]) => invoiceApproval.slice(0, at) + text + invoiceApproval.slice(at + cut)),
  fc.string({ maxLength: 200 })
)

describe("reading random documents", () => {
  it("never throws, and places every issue at a line, a column and a pointer", () => {
    fc.assert(
      fc.property(documents, (source) => {
        const read = readWorkflow(source)
        if (Either.isLeft(read)) {
          expect(read.left.length).toBeGreaterThan(0)
          expect(read.left.length).toBeLessThanOrEqual(21)
          for (const issue of read.left) {
            expect(issue.line).toBeGreaterThanOrEqual(1)
            expect(issue.column).toBeGreaterThanOrEqual(1)
            expect(issue.pointer === "" || issue.pointer.startsWith("/")).toBe(true)
            expect(issue.message.length).toBeGreaterThan(0)
          }
        }
      }),
      { numRuns: 300 }
    )
  })

  it("reads a document to the same result every time", () => {
    fc.assert(
      fc.property(documents, (source) => {
        expect(JSON.stringify(readWorkflow(source))).toBe(JSON.stringify(readWorkflow(source)))
      }),
      { numRuns: 100 }
    )
  })
})
