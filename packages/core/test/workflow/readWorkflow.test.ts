// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { Either } from "effect"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { readWorkflow } from "../../src/formats/workflow/readWorkflow.js"
import { sandboxGlobals } from "../../src/formats/workflow/sandboxGlobals.js"
import type { Task } from "../../src/formats/workflow/Task.js"
import { allTasks } from "../../src/formats/workflow/WorkflowDocument.js"
import { sandboxLibrary } from "../../src/sandbox/sandboxLibrary.js"
import { invoiceApproval } from "./invoiceApproval.js"
import { issuesOf, readOrFail, workflow } from "./workflowFixture.js"

/** One task of every kind, with every common field and every retry field. */
const everyKind = workflow(
  `  - call-it:
      if: $data.go !== false
      input:
        from: '\${ ({ ...$data, asked: true }) }'
      output:
        as:
          answer: '\${ $data }'
          fixed: 3
      export:
        as: '\${ ({ ...$context, last: $output }) }'
      timeout:
        after: PT1.5S
      call: run_definition
      with:
        type: computation
        name: sum-up
  - pick:
      switch:
        - many:
            when: $data.n > 10
            then: loop
        - otherwise:
            then: continue
  - loop:
      for: { in: $data.lines }
      do:
        - add:
            set:
              at: \${ $index }
              line: \${ $item }
  - both:
      fork:
        compete: true
        branches:
          - first:
              wait: { seconds: 1, milliseconds: 500 }
          - second:
              listen:
                to:
                  all:
                    - with: { type: com.example.a }
                    - with: { type: com.example.b, data: '\${ $data > 5 }' }
                read: envelope
  - guarded:
      try:
        - inner:
            do:
              - fail:
                  raise:
                    error: late
      catch:
        errors:
          with: { type: timeout, kind: deadline }
        as: problem
        when: $problem.status === 408
        exceptWhen: $problem.detail === "no"
        retry:
          delay: PT1S
          backoff: { linear: {} }
          jitter: { from: PT0S, to: PT0.25S }
          limit:
            attempt: { count: 3, duration: PT10S }
            duration: PT1M
          when: $problem.status >= 400
          exceptWhen: $input.never === true
        do:
          - recover:
              set: { why: '\${ $problem.title }' }
  - announce:
      emit:
        event:
          with: { type: com.example.done, source: https://example.com/flows, data: { n: '\${ $data.n }' } }
      then: end
`,
  `use:
  errors:
    late: { type: https://example.com/errors/late, status: 408, title: Late }
schedule:
  on:
    one:
      with: { type: com.example.invoice.received, data: '\${ $data.amount_cents > 1000 }' }
  cron: 'CRON_TZ=Europe/Paris 0 9 * * 1-5'
  every: PT30M
`
)

const byName = (tasks: ReadonlyArray<Task>, name: string): Task => tasks.find((task) => task.name === name)!

describe("reading a workflow document", () => {
  it("reads the worked example of §1.2 without issues", () => {
    expect(issuesOf(invoiceApproval)).toEqual([])
    const document = readOrFail(invoiceApproval)
    expect(document.description).toBe("Assesses an invoice, asks for a decision when needed and records the outcome.")
    expect(document.timeout).toEqual({ after: { _tag: "Fixed", milliseconds: 14 * 86_400_000 } })
    expect(document.do.map((task) => task.name)).toEqual([
      "check",
      "stop-if-unpayable",
      "route",
      "ask",
      "judge",
      "escalated",
      "rejected",
      "auto-approve",
      "approved",
      "announce"
    ])
    const check = byName(document.do, "check")
    expect(check.body.kind === "try" && check.body.catch.retry).toMatchObject({
      name: "model-busy",
      delay: { _tag: "Fixed", milliseconds: 10_000 },
      backoff: "exponential",
      jitter: { from: { _tag: "Fixed", milliseconds: 0 }, to: { _tag: "Fixed", milliseconds: 2_000 } },
      limit: {
        attemptCount: 4,
        attemptDuration: { _tag: "Fixed", milliseconds: 120_000 },
        duration: { _tag: "Fixed", milliseconds: 600_000 }
      }
    })
    expect(check.body.kind === "try" && check.body.catch.errors).toEqual({
      type: "https://serverlessworkflow.io/spec/1.0.0/errors/communication"
    })
    const route = byName(document.do, "route")
    expect(route.body.kind === "switch" && route.body.cases.map((one) => one.then)).toEqual([
      { _tag: "Jump", task: "auto-approve", index: 7 },
      { _tag: "Jump", task: "ask", index: 3 }
    ])
    const wait = allTasks(document.do).find((task) => task.name === "wait-for-decision")!
    expect(wait.timeout).toEqual({ name: "one-week", after: { _tag: "Fixed", milliseconds: 7 * 86_400_000 } })
    expect(byName(document.do, "escalated").then).toEqual({ _tag: "End" })
  })

  it("reads every task kind, every common field and every retry field into the model", () => {
    const document = readOrFail(everyKind)
    expect(document.do.map((task) => task.body.kind)).toEqual(["call", "switch", "for", "fork", "try", "emit"])
    const call = byName(document.do, "call-it")
    expect(call).toMatchObject({
      reference: "/do/0/call-it",
      if: { _tag: "Expression", source: "$data.go !== false", pointer: "/do/0/call-it/if" },
      inputFrom: { _tag: "Expression", source: "({ ...$data, asked: true })" },
      outputAs: {
        _tag: "Mapping",
        entries: [
          ["answer", { _tag: "Expression", source: "$data" }],
          ["fixed", { _tag: "Literal", value: 3 }]
        ]
      },
      exportAs: { _tag: "Expression", source: "({ ...$context, last: $output })" },
      timeout: { after: { _tag: "Fixed", milliseconds: 1_500 } },
      // biome-ignore lint/suspicious/noThenProperty: the DSL names a task's flow then
      then: { _tag: "Continue" },
      body: { kind: "call", type: "computation", name: "sum-up", input: { _tag: "Literal", value: {} } }
    })
    const loop = byName(document.do, "loop")
    expect(loop.body).toMatchObject({ kind: "for", each: "item", at: "index", in: { source: "$data.lines" } })
    const fork = byName(document.do, "both")
    expect(fork.body.kind === "fork" && fork.body.compete).toBe(true)
    const listen = allTasks(document.do).find((task) => task.name === "second")!
    expect(listen.body).toMatchObject({
      kind: "listen",
      to: "all",
      read: "envelope",
      filters: [
        {
          reference: "/do/3/both/fork/branches/1/second/listen/to/all/0",
          attributes: [["type", { _tag: "Literal", value: "com.example.a" }]]
        },
        {
          attributes: [
            ["type", { _tag: "Literal" }],
            ["data", { _tag: "Expression", source: "$data > 5" }]
          ]
        }
      ]
    })
    const guarded = byName(document.do, "guarded")
    expect(guarded.body.kind === "try" && guarded.body.catch).toMatchObject({
      as: "problem",
      errors: { type: "https://serverlessworkflow.io/spec/1.0.0/errors/timeout", kind: "deadline" },
      when: { source: "$problem.status === 408" },
      exceptWhen: { source: '$problem.detail === "no"' },
      retry: {
        backoff: "linear",
        jitter: { to: { _tag: "Fixed", milliseconds: 250 } },
        limit: { attemptCount: 3 },
        when: { source: "$problem.status >= 400" },
        exceptWhen: { source: "$input.never === true" }
      }
    })
    const fail = allTasks(document.do).find((task) => task.name === "fail")!
    expect(fail.body).toMatchObject({ kind: "raise", error: { name: "late", error: { _tag: "Literal" } } })
    expect(byName(document.do, "announce").then).toEqual({ _tag: "End" })
  })

  it("reads the triggers in document order, the cron zone from its CRON_TZ prefix (W4)", () => {
    expect(readOrFail(everyKind).triggers).toEqual([
      {
        kind: "event",
        reference: "/schedule/on",
        filters: [
          {
            reference: "/schedule/on/one",
            type: "com.example.invoice.received",
            attributes: [
              ["type", { _tag: "Literal", value: "com.example.invoice.received" }],
              [
                "data",
                {
                  _tag: "Expression",
                  source: "$data.amount_cents > 1000",
                  script: "$data.amount_cents > 1000",
                  pointer: "/schedule/on/one/with/data"
                }
              ]
            ]
          }
        ]
      },
      { kind: "cron", reference: "/schedule/cron", expression: "0 9 * * 1-5", timeZone: "Europe/Paris" },
      { kind: "every", reference: "/schedule/every", milliseconds: 1_800_000 }
    ])
  })

  it("stores the JavaScript of an expression with its types erased, in place", () => {
    const document = readOrFail(workflow("  - a:\n      set:\n        n: '${ ($data.n as number) + 1 }'\n"))
    const set = document.do[0]!.body
    expect(set.kind === "set" && set.set).toEqual({
      _tag: "Mapping",
      entries: [
        [
          "n",
          {
            _tag: "Expression",
            source: "($data.n as number) + 1",
            script: "($data.n          ) + 1",
            pointer: "/do/0/a/set/n"
          }
        ]
      ]
    })
  })

  it("gives the schema of a named output shape as the output schema (W3)", () => {
    const document = readOrFail(workflow("  - a:\n      wait: PT1S\n", "output:\n  shape: series\n"))
    expect(document.shape).toBe("series")
    expect(document.outputSchema).toMatchObject({ required: ["series", "period", "observed"] })
  })

  it("reads the same document to the same model every time", () => {
    const first = readWorkflow(everyKind)
    expect(Either.isRight(first)).toBe(true)
    expect(readWorkflow(everyKind)).toEqual(first)
    expect(JSON.stringify(readWorkflow(invoiceApproval))).toBe(JSON.stringify(readWorkflow(invoiceApproval)))
  })

  it("knows exactly the globals of the sandbox's library", () => {
    const library = ts.createSourceFile("library.d.ts", sandboxLibrary(), ts.ScriptTarget.ESNext, true)
    const declared = new Set(["globalThis", "undefined"])
    for (const statement of library.statements) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) declared.add(declaration.name.text)
        }
      }
      if ((ts.isFunctionDeclaration(statement) || ts.isModuleDeclaration(statement)) && statement.name !== undefined) {
        declared.add(statement.name.text)
      }
    }
    expect([...sandboxGlobals].toSorted()).toEqual([...declared].filter((name) => name !== "global").toSorted())
  })
})
