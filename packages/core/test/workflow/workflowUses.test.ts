import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { readWorkflow } from "../../src/formats/workflow/readWorkflow.js"
import { workflowUses } from "../../src/formats/workflow/workflowUses.js"

const x = "$" + "{"

/** Calls in nested lists, one definition called twice, and one whose name is an expression. */
const source = `document:
  dsl: '1.0.3'
  namespace: uses
  name: flow
  version: '1.0.0'
do:
  - prepare:
      set:
        rows: '${x} $input.rows }'
  - each:
      for:
        in: '${x} $data.rows }'
      do:
        - total:
            call: run_definition
            with: { type: computation, name: invoice-totals, input: '${x} $item }' }
  - guarded:
      try:
        - ask:
            call: run_definition
            with: { type: interaction, name: approve, input: {} }
      catch:
        as: failure
        do:
          - again:
              call: run_definition
              with: { type: computation, name: invoice-totals, input: {} }
  - chosen:
      call: run_definition
      with: { type: computation, name: '${x} $input.which }', input: {} }
`

describe("what a workflow uses (ADR 0015)", () => {
  it("names each literal callee once, with its steps numbered in document order, and skips computed names", () => {
    const document = Either.getOrThrow(readWorkflow(source))
    expect(workflowUses(document)).toEqual([
      {
        type: "computation",
        name: "invoice-totals",
        relation: "calls",
        steps: [
          { number: 3, name: "total" },
          { number: 6, name: "again" }
        ]
      },
      { type: "interaction", name: "approve", relation: "calls", steps: [{ number: 5, name: "ask" }] }
    ])
  })
})
