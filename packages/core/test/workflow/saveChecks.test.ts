// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { describe, expect, it } from "vitest"
import { header, issuesOf, workflow } from "./workflowFixture.js"

/** A task that does nothing much, for documents whose point is elsewhere. */
const pause = "  - a:\n      wait: PT1S\n"

describe("save-time checks: YAML, size and depth (§2, §13)", () => {
  it("refuses YAML that cannot be read", () => {
    expect(issuesOf(`${header}do: [\n`)[0]).toMatch(/^Line 7, column 1: at : the YAML cannot be read: /)
  })

  it("refuses anchors, aliases and tags", () => {
    expect(issuesOf(workflow("  - a: &x\n      wait: PT1S\n  - b: *x\n"))).toEqual([
      "Line 8, column 7: at /do/0/a: anchors (&name) are not allowed; write each value out",
      "Line 9, column 8: at /do/1/b: aliases (*name) are not allowed; write the value out"
    ])
    expect(issuesOf(workflow("  - a:\n      wait: !!str PT1S\n"))).toEqual([
      "Line 8, column 13: at /do/0/a/wait: tags (tag:yaml.org,2002:str) are not allowed; write plain YAML values"
    ])
  })

  it("refuses repeated keys", () => {
    expect(issuesOf(workflow("  - a:\n      wait: PT1S\n      wait: PT2S\n"))).toEqual([
      'Line 9, column 7: at /do/0/a/wait: the key "wait" is repeated in this mapping'
    ])
  })

  it("refuses a source over 65,536 bytes", () => {
    expect(issuesOf(`${workflow(pause)}# ${"x".repeat(65_536)}\n`)).toEqual([
      "Line 1, column 1: at : the document holds 65642 bytes; at most 65536 are allowed"
    ])
  })

  it("refuses values nested deeper than 512 levels, before anything else", () => {
    const deep = `${"[".repeat(520)}${"]".repeat(520)}`
    const issues = issuesOf(`${header}bogus: 1\ndo:\n  - a:\n      set:\n        x: ${deep}\n`)
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatch(
      /^Line 10, column 519: at \/do\/0\/a\/set\/x(\/0){507}: the document nests deeper than 512 levels$/
    )
  })

  it("refuses task lists nested deeper than 64 levels, at the list too deep", () => {
    const nest = (depth: number): string =>
      depth === 0 ? "{ t: { wait: PT1S } }" : `{ t: { do: [${nest(depth - 1)}] } }`
    const issues = issuesOf(`${header}do: [${nest(64)}]\n`)
    expect(issues).toEqual([
      `Line 6, column ${17 + 63 * 12}: at ${"/do/0/t".repeat(64)}/do: task lists nest deeper than 64 levels here`
    ])
    expect(issuesOf(`${header}do: [${nest(63)}]\n`)).toEqual([])
  })

  it("shows at most 20 issues, then counts the rest", () => {
    const tasks = Array.from({ length: 25 }, (_, index) => `  - t${index}:\n      wait: P1Y\n`).join("")
    const issues = issuesOf(workflow(tasks))
    expect(issues).toHaveLength(21)
    expect(issues[20]).toBe("Line 48, column 13: at /do/20/t20/wait: 5 more issues are not shown")
  })
})

describe("save-time checks: the DSL 1.0 document (§1.1, §13)", () => {
  it("refuses unknown keys and a document without document or do", () => {
    expect(issuesOf("name: x\n")).toEqual([
      "Line 1, column 1: at : the key do is required here",
      "Line 1, column 1: at : the key document is required here",
      'Line 1, column 1: at /name: unknown key "name"; this place takes document, input, output, use, do, timeout, schedule, evaluate'
    ])
  })

  it("refuses a DSL version outside 1.0.0–1.0.3, and names and versions the DSL rejects", () => {
    const source = `document:\n  dsl: '0.9'\n  namespace: Finance\n  name: ok-name\n  version: 1.2\ndo:\n${pause}`
    expect(issuesOf(source)).toEqual([
      'Line 2, column 8: at /document/dsl: document.dsl is one of 1.0.0, 1.0.1, 1.0.2, 1.0.3, found the string "0.9"',
      'Line 3, column 14: at /document/namespace: document.namespace is lowercase letters and digits, joined by single hyphens; found the string "Finance"',
      "Line 5, column 12: at /document/version: document.version is a semantic version such as '2.1.0' (quoted), found the number 1.2"
    ])
  })

  it("accepts document.tags and document.metadata and ignores them (W14)", () => {
    const source = `${header}  tags: { team: finance }\n  metadata: { owner: { name: Ana } }\ndo:\n${pause}`
    expect(issuesOf(source)).toEqual([])
  })

  it("refuses a language other than typescript and a mode other than strict", () => {
    expect(issuesOf(workflow(pause, "evaluate:\n  language: jq\n  mode: loose\n"))).toEqual([
      'Line 7, column 13: at /evaluate/language: the only language is typescript; jq and others are not supported, found the string "jq"',
      'Line 8, column 9: at /evaluate/mode: the only mode is strict, so a failing expression fails; found the string "loose"'
    ])
  })

  it("refuses use sections this runtime does not support", () => {
    expect(issuesOf(workflow(pause, "use:\n  secrets: [token]\n"))).toEqual([
      'Line 7, column 3: at /use/secrets: unknown key "secrets" (not supported by this runtime); this place takes errors, retries, timeouts'
    ])
  })

  it("refuses schemas that are not inline JSON Schema, and task-level schemas", () => {
    expect(
      issuesOf(workflow(pause, "input:\n  schema:\n    resource: { endpoint: https://x.example/s.json }\n"))
    ).toEqual([
      "Line 8, column 5: at /input/schema: the key document is required here",
      'Line 8, column 5: at /input/schema/resource: unknown key "resource" (external schemas are not fetched; write the schema under document); this place takes document, format'
    ])
    expect(issuesOf(workflow("  - a:\n      wait: PT1S\n      input:\n        schema: { document: {} }\n"))).toEqual([
      'Line 10, column 9: at /do/0/a/input/schema: unknown key "schema" (task schemas are not checked; describe the document\'s input and output instead); this place takes from'
    ])
  })

  it("checks the input and output schemas with the function schema rules", () => {
    expect(issuesOf(workflow(pause, "input:\n  schema:\n    document: { type: object, pattern: x }\n"))).toEqual([
      "Line 8, column 40: at /input/schema/document/pattern: pattern is not allowed: regular expressions can backtrack without end"
    ])
  })

  it("refuses output.shape beside output.schema, and unknown shapes (W3)", () => {
    expect(issuesOf(workflow(pause, "output:\n  shape: table\n  schema:\n    document: { type: object }\n"))).toEqual([
      "Line 7, column 10: at /output/shape: write output.shape or output.schema, not both"
    ])
    expect(issuesOf(workflow(pause, "output:\n  shape: chart\n"))).toEqual([
      'Line 7, column 10: at /output/shape: expected one of table, series, asset, found the string "chart"'
    ])
  })
})

describe("save-time checks: tasks (§2, §3, §7, §13)", () => {
  it("refuses run tasks", () => {
    expect(issuesOf(workflow("  - a:\n      run:\n        shell: { command: ls }\n"))[0]).toBe(
      'Line 8, column 7: at /do/0/a/run: unknown key "run" (run tasks are not executed by this runtime; call a playbook function with call: run_definition); this place takes if, input, output, export, timeout, then, metadata, call, set, do, switch, for, fork, try, raise, wait, listen, emit'
    )
  })

  it("refuses a task naming no kind, or two", () => {
    expect(issuesOf(workflow("  - a:\n      then: end\n  - b:\n      set: { x: 1 }\n      wait: PT1S\n"))).toEqual([
      "Line 8, column 7: at /do/0/a: this task names no kind; give it one of call, set, do, switch, for, fork, try, raise, wait, listen, emit",
      "Line 10, column 7: at /do/1/b: a task has one kind, this one names set and wait"
    ])
  })

  it("refuses keys a task's kind does not take", () => {
    expect(issuesOf(workflow("  - a:\n      wait: PT1S\n      catch: {}\n"))).toEqual([
      'Line 9, column 7: at /do/0/a/catch: unknown key "catch"; this place takes if, input, output, export, timeout, then, metadata, wait'
    ])
  })

  it("refuses calls of http, grpc, openapi, asyncapi, a2a and mcp", () => {
    for (const call of ["http", "grpc", "openapi", "asyncapi", "a2a", "mcp"]) {
      expect(
        issuesOf(workflow(`  - a:\n      call: ${call}\n      with: { type: computation, name: sum-up }\n`))
      ).toEqual([
        `Line 8, column 13: at /do/0/a/call: call: ${call} is refused; workflows reach the world only through playbook functions: call run_definition`
      ])
    }
  })

  it("refuses any other call, and with keys other than type, name and input", () => {
    expect(issuesOf(workflow("  - a:\n      call: sum\n"))).toEqual([
      'Line 8, column 13: at /do/0/a/call: the only call is run_definition, found the string "sum"'
    ])
    expect(
      issuesOf(
        workflow("  - a:\n      call: run_definition\n      with: { type: reasoning, name: sum-up, endpoint: x }\n")
      )
    ).toEqual([
      'Line 9, column 46: at /do/0/a/with/endpoint: unknown key "endpoint"; this place takes type, name, input'
    ])
  })

  it("checks a literal with.type and with.name, and accepts computed ones (W12)", () => {
    expect(
      issuesOf(workflow("  - a:\n      call: run_definition\n      with: { type: robot, name: Sum_Up }\n"))
    ).toEqual([
      'Line 9, column 21: at /do/0/a/with/type: with.type is one of reasoning, lookup, interaction, prediction, computation, generation, workflow, found the string "robot"',
      'Line 9, column 34: at /do/0/a/with/name: with.name is 3 to 48 lowercase letters, digits and hyphens, beginning with a letter, found the string "Sum_Up"'
    ])
    const computed =
      "  - a:\n      call: run_definition\n      with: { type: '${ $data.type }', name: '${ $data.name }' }\n"
    expect(issuesOf(workflow(computed))).toEqual([])
  })

  it("refuses duplicate task names within a list (W13), and names that read as directives", () => {
    expect(
      issuesOf(workflow("  - a:\n      wait: PT1S\n  - a:\n      wait: PT2S\n  - end:\n      wait: PT1S\n"))
    ).toEqual([
      'Line 9, column 5: at /do/1/a: the name "a" is taken by task 0 of this list; task names are unique within their list',
      "Line 11, column 5: at /do/2/end: a task may not be named end, which then reads as a flow directive"
    ])
  })

  it("refuses a then that names no task of the same list", () => {
    const tasks =
      "  - a:\n      do:\n        - inner:\n            wait: PT1S\n            then: b\n  - b:\n      wait: PT1S\n"
    expect(issuesOf(workflow(tasks))).toEqual([
      'Line 11, column 19: at /do/0/a/do/0/inner/then: this list holds no task named "b"; it holds inner'
    ])
  })

  it("refuses a switch case's then that names no task of the switch's list", () => {
    const tasks =
      "  - route:\n      switch:\n        - big:\n            when: $data.n > 5\n            then: nowhere\n"
    expect(issuesOf(workflow(tasks))).toEqual([
      'Line 11, column 19: at /do/0/route/switch/0/big/then: this list holds no task named "nowhere"; it holds route'
    ])
  })

  it("refuses any jump inside a fork branch, however deep", () => {
    const tasks =
      "  - f:\n      fork:\n        branches:\n          - x:\n              do:\n                - y:\n                    wait: PT1S\n                    then: z\n                - z:\n                    wait: PT1S\n"
    expect(issuesOf(workflow(tasks))).toEqual([
      "Line 14, column 27: at /do/0/f/fork/branches/0/x/do/0/y/then: inside a fork branch, then is continue, exit or end; jumping to a task is refused"
    ])
  })

  it("refuses more than 32 fork branches", () => {
    const branches = Array.from(
      { length: 33 },
      (_, index) => `          - b${index}:\n              wait: PT1S\n`
    ).join("")
    expect(issuesOf(workflow(`  - f:\n      fork:\n        branches:\n${branches}`))).toEqual([
      "Line 10, column 11: at /do/0/f/fork/branches: a fork holds at most 32 branches, found 33"
    ])
  })

  it("refuses names of raise.error, retry and timeout missing from use", () => {
    const tasks =
      "  - a:\n      timeout: quick\n      try:\n        - b:\n            raise:\n              error: nope\n      catch:\n        retry: again\n"
    expect(issuesOf(workflow(tasks, "use:\n  timeouts:\n    slow: { after: PT1H }\n"))).toEqual([
      'Line 11, column 16: at /do/0/a/timeout: use.timeouts has no entry "quick"; it names slow',
      'Line 15, column 22: at /do/0/a/try/0/b/raise/error: use.errors has no entry "nope"; it names none',
      'Line 17, column 16: at /do/0/a/catch/retry: use.retries has no entry "again"; it names none'
    ])
  })

  it("refuses a raised error without a URI type or an integer status", () => {
    expect(issuesOf(workflow("  - a:\n      raise:\n        error: { type: late, status: '422' }\n"))).toEqual([
      'Line 9, column 24: at /do/0/a/raise/error/type: an error type is an absolute URI such as https://example.com/errors/late, found the string "late"',
      'Line 9, column 38: at /do/0/a/raise/error/status: an error status is an integer such as 422, found the string "422"'
    ])
  })

  it("refuses for.each and catch.as names that are not plain or that the runtime gives", () => {
    const tasks =
      "  - a:\n      for: { each: data, in: $data.lines }\n      do:\n        - b:\n            wait: PT1S\n  - c:\n      try:\n        - d:\n            wait: PT1S\n      catch:\n        as: 'my-error'\n"
    expect(issuesOf(workflow(tasks))).toEqual([
      "Line 8, column 20: at /do/0/a/for/each: $data is a variable the runtime gives; choose another name",
      'Line 17, column 13: at /do/1/c/catch/as: a variable name is letters, digits and underscores, written without $; found the string "my-error"'
    ])
  })
})

describe("save-time checks: expressions (§6, decision W10)", () => {
  it("refuses a name the place lacks, with the compiler's words", () => {
    expect(issuesOf(workflow("  - read:\n      set:\n        n: ${ $nope + 1 }\n"))).toEqual([
      "Line 9, column 15: at /do/0/read/set/n: Cannot find name '$nope'. Here an expression may use $data, $input, $context, $task, $workflow, $runtime."
    ])
  })

  it("refuses $input in an if, and $output outside export.as", () => {
    expect(issuesOf(workflow("  - a:\n      if: $input.x > 1\n      set:\n        n: '${ $output }'\n"))).toEqual([
      "Line 8, column 11: at /do/0/a/if: Cannot find name '$input'. Here an expression may use $data, $context, $task, $workflow, $runtime.",
      "Line 10, column 16: at /do/0/a/set/n: Cannot find name '$output'. Here an expression may use $data, $input, $context, $task, $workflow, $runtime."
    ])
    expect(
      issuesOf(workflow("  - a:\n      set: { n: 1 }\n      export:\n        as: '${ ({ last: $output }) }'\n"))
    ).toEqual([])
  })

  it("refuses $error outside a catch, and gives it (renamed) inside one", () => {
    expect(issuesOf(workflow("  - a:\n      set:\n        n: '${ $error.type }'\n"))[0]).toBe(
      "Line 9, column 16: at /do/0/a/set/n: Cannot find name '$error'. Here an expression may use $data, $input, $context, $task, $workflow, $runtime."
    )
    const caught =
      "  - a:\n      try:\n        - b:\n            wait: PT1S\n      catch:\n        as: failure\n        when: $failure.status === 408\n        do:\n          - c:\n              set: { why: '${ $failure.title }' }\n"
    expect(issuesOf(workflow(caught))).toEqual([])
  })

  it("gives $item and $index, or their for.each and for.at names, inside a for", () => {
    const loop =
      "  - total:\n      for: { each: line, at: position, in: $data.lines }\n      while: ($data.sum ?? 0) < 100000\n      do:\n        - add:\n            set:\n              sum: ${ ($data.sum ?? 0) + $line.amount_cents }\n              counted: ${ $position + 1 }\n              wrong: ${ $item }\n"
    expect(issuesOf(workflow(loop))).toEqual([
      "Line 15, column 25: at /do/0/total/do/0/add/set/wrong: Cannot find name '$item'. Here an expression may use $data, $input, $context, $task, $workflow, $runtime, $line, $position."
    ])
  })

  it("refuses globals and members the sandbox lacks", () => {
    expect(
      issuesOf(workflow("  - a:\n      set:\n        n: '${ fetch(\"x\") }'\n        r: ${ Math.random() }\n"))
    ).toEqual([
      "Line 9, column 16: at /do/0/a/set/n: Cannot find name 'fetch'. Expressions run in the sandbox, which has no such global.",
      "Line 10, column 20: at /do/0/a/set/r: Property 'random' does not exist on type 'Math'. The sandbox removes it."
    ])
  })

  it("accepts names an expression declares itself, and types it erases", () => {
    const source =
      "  - a:\n      set:\n        n: '${ $data.items.map((item: { n: number }) => { const twice = item.n * 2; return twice }) }'\n"
    expect(issuesOf(workflow(source))).toEqual([])
  })

  it("refuses what is not exactly one expression", () => {
    expect(
      issuesOf(
        workflow(
          "  - a:\n      set:\n        n: '${ 1; 2 }'\n        o: '${ { a: 1 } }'\n        p: '${ 1; }'\n        q: '${ }'\n"
        )
      )
    ).toEqual([
      "Line 9, column 19: at /do/0/a/set/n: write exactly one expression, not statements",
      "Line 10, column 16: at /do/0/a/set/o: this reads as a block of statements; write an object literal in parentheses: ${ ({ a: 1 }) }",
      "Line 11, column 17: at /do/0/a/set/p: an expression ends without a semicolon",
      "Line 12, column 15: at /do/0/a/set/q: the expression is empty; write one TypeScript expression"
    ])
  })

  it("refuses expressions with syntax errors, at the error", () => {
    expect(issuesOf(workflow("  - a:\n      if: $data.( > 1\n      wait: PT1S\n"))).toEqual([
      "Line 8, column 17: at /do/0/a/if: Identifier expected."
    ])
  })

  it("places issues of block scalars on their own lines", () => {
    const source = "  - a:\n      set:\n        n: |-\n          ${ $data.a +\n             $nope }\n"
    expect(issuesOf(workflow(source))).toEqual([
      "Line 11, column 14: at /do/0/a/set/n: Cannot find name '$nope'. Here an expression may use $data, $input, $context, $task, $workflow, $runtime."
    ])
  })

  it("refuses a string holding ${ without being one whole expression (W10)", () => {
    expect(issuesOf(workflow("  - a:\n      set:\n        n: 'Invoice ${ $data.n } due'\n"))).toEqual([
      "Line 9, column 12: at /do/0/a/set/n: this text holds ${ without being one whole expression, and only a whole string ${ … } is evaluated; to mix text and values, write one expression with a template literal: ${ `Invoice ${$data.number} is due` }"
    ])
  })
})

describe("save-time checks: durations (§11, decision W14)", () => {
  it("refuses years and months", () => {
    expect(issuesOf(workflow("  - a:\n      wait: P1Y\n  - b:\n      wait: P2M\n"))).toEqual([
      "Line 8, column 13: at /do/0/a/wait: durations in years or months are refused, their length varies; write weeks or days",
      "Line 10, column 13: at /do/1/b/wait: durations in years or months are refused, their length varies; write weeks or days"
    ])
  })

  it("refuses written durations longer than the longest run, which a deployment sets", () => {
    expect(issuesOf(workflow("  - a:\n      wait: P31D\n"))).toEqual([
      "Line 8, column 13: at /do/0/a/wait: this duration is 31 days, longer than the longest run of 30 days"
    ])
    expect(issuesOf(workflow("  - a:\n      wait: P31D\n"), { maxRunMilliseconds: 365 * 86_400_000 })).toEqual([])
  })

  it("refuses text that is no ISO 8601 duration, and mappings of unknown units", () => {
    expect(
      issuesOf(workflow("  - a:\n      wait: 30 minutes\n  - b:\n      wait: { minutes: 5, weeks: 1 }\n"))
    ).toEqual([
      'Line 8, column 13: at /do/0/a/wait: "30 minutes" is not an ISO 8601 duration such as PT30M, P7D, P1W or P1DT12H',
      'Line 10, column 13: at /do/1/b/wait: unknown key "weeks"; a duration mapping takes days, hours, minutes, seconds, milliseconds'
    ])
  })

  it("refuses more than three decimals of seconds", () => {
    expect(issuesOf(workflow("  - a:\n      wait: PT1.2345S\n"))).toEqual([
      "Line 8, column 13: at /do/0/a/wait: seconds take at most three decimals (milliseconds)"
    ])
  })
})

describe("save-time checks: events (§8)", () => {
  it("refuses listen with until, foreach or correlate", () => {
    const tasks =
      "  - a:\n      listen:\n        to:\n          any:\n            - with: { type: x }\n              correlate: { id: { from: '${ $data.id }' } }\n          until: '${ true }'\n      foreach: { item: e }\n"
    expect(issuesOf(workflow(tasks))).toEqual([
      'Line 12, column 15: at /do/0/a/listen/to/any/0/correlate: unknown key "correlate" (correlating events is not supported); this place takes with',
      'Line 13, column 11: at /do/0/a/listen/to/until: unknown key "until" (a listen ends when its events are taken); this place takes one, any, all',
      'Line 14, column 7: at /do/0/a/foreach: unknown key "foreach" (listening for a stream of events is not supported); this place takes if, input, output, export, timeout, then, metadata, listen'
    ])
  })

  it("refuses a listen filter expression naming anything but $data", () => {
    expect(
      issuesOf(
        workflow(
          "  - a:\n      listen:\n        to:\n          one:\n            with: { type: x, data: '${ $context.a }' }\n"
        )
      )
    ).toEqual([
      "Line 11, column 40: at /do/0/a/listen/to/one/with/data: Cannot find name '$context'. Here an expression may use $data."
    ])
  })

  it("refuses an emit without type or source, with an id, or reserved or relative values", () => {
    expect(issuesOf(workflow("  - a:\n      emit:\n        event:\n          with: { data: 1 }\n"))).toEqual([
      "Line 10, column 17: at /do/0/a/emit/event/with: the key source is required here",
      "Line 10, column 17: at /do/0/a/emit/event/with: the key type is required here"
    ])
    const tasks =
      "  - a:\n      emit:\n        event:\n          with: { type: run_started, source: invoices, id: x, depth: 1 }\n  - b:\n      emit:\n        event:\n          with: { type: ok, source: /runs/1 }\n"
    expect(issuesOf(workflow(tasks))).toEqual([
      "Line 10, column 25: at /do/0/a/emit/event/with/type: the type run_started is one the runtime records itself; choose another",
      `Line 10, column 46: at /do/0/a/emit/event/with/source: a written source is an absolute URI such as https://example.com/invoices; write a relative one as an expression: '\${ "invoices" }'`,
      "Line 10, column 56: at /do/0/a/emit/event/with/id: an emitted event's id is made by the runtime, so a resumed run emits once; remove id",
      "Line 10, column 63: at /do/0/a/emit/event/with/depth: the attribute depth is one the runtime gives its events",
      "Line 14, column 37: at /do/1/b/emit/event/with/source: sources beginning /runs/, /definitions/, /callers/ are the runtime's own"
    ])
  })
})

describe("save-time checks: triggers (§12, decision W4)", () => {
  it("refuses schedule.after, on.all, on.until and an empty schedule", () => {
    expect(issuesOf(workflow(pause, "schedule:\n  after: PT1H\n  on:\n    all: []\n    until: x\n"))).toEqual([
      'Line 7, column 3: at /schedule/after: unknown key "after" (one run per event or due time); this place takes on, cron, every',
      "Line 9, column 5: at /schedule/on: an event trigger names exactly one of one (a filter) or any (a list of filters)",
      'Line 9, column 5: at /schedule/on/all: unknown key "all" (one run per event or due time); this place takes one, any',
      'Line 10, column 5: at /schedule/on/until: unknown key "until" (one run per event or due time); this place takes one, any'
    ])
  })

  it("refuses a schedule naming no trigger", () => {
    expect(issuesOf(workflow(pause, "schedule: {}\n"))).toEqual([
      "Line 6, column 11: at /schedule: a schedule names one or more triggers: on, cron or every"
    ])
  })

  it("refuses trigger filters without a literal type, with other attributes, or computed source and subject", () => {
    const head =
      "schedule:\n  on:\n    any:\n      - with: { source: https://x.example }\n      - with: { type: '${ \"a\" }', subject: '${ $data }', region: eu }\n"
    expect(issuesOf(workflow(pause, head))).toEqual([
      "Line 9, column 15: at /schedule/on/any/0/with: the key type is required here",
      'Line 10, column 23: at /schedule/on/any/1/with/type: a trigger filter\'s type is literal text, matched before any run exists; found the string "${ \\"a\\" }"',
      'Line 10, column 44: at /schedule/on/any/1/with/subject: a trigger filter\'s subject is literal text, matched before any run exists; found the string "${ $data }"',
      'Line 10, column 58: at /schedule/on/any/1/with/region: unknown key "region"; this place takes type, source, subject, data'
    ])
  })

  it("refuses a trigger filter expression naming anything but $data", () => {
    expect(
      issuesOf(workflow(pause, "schedule:\n  on:\n    one:\n      with: { type: a, data: '${ $workflow.id }' }\n"))
    ).toEqual([
      "Line 9, column 34: at /schedule/on/one/with/data: Cannot find name '$workflow'. Here an expression may use $data."
    ])
  })

  it("refuses a filter repeated in on.any, whatever its key order, and more than 64 filters", () => {
    const head =
      "schedule:\n  on:\n    any:\n      - with: { type: a, source: https://x.example }\n      - with: { source: https://x.example, type: a }\n"
    expect(issuesOf(workflow(pause, head))).toEqual([
      "Line 10, column 9: at /schedule/on/any/1: this filter repeats the filter at /schedule/on/any/0"
    ])
    const many = Array.from({ length: 65 }, (_, index) => `      - with: { type: t${index} }\n`).join("")
    expect(issuesOf(workflow(pause, `schedule:\n  on:\n    any:\n${many}`))).toEqual([
      "Line 9, column 7: at /schedule/on/any: any lists 1 to 64 filters, found 65"
    ])
  })

  it("refuses every under a minute", () => {
    expect(issuesOf(workflow(pause, "schedule:\n  every: PT30S\n"))).toEqual([
      "Line 7, column 10: at /schedule/every: every is at least one minute (PT1M)"
    ])
  })

  it("refuses a cron rule that is not five fields, never due, or in an unknown zone", () => {
    expect(issuesOf(workflow(pause, "schedule:\n  cron: '0 0 9 * * 1'\n"))).toEqual([
      "Line 7, column 9: at /schedule/cron: a cron rule has exactly five fields (minute, hour, day of month, month, day of week), found 6"
    ])
    expect(issuesOf(workflow(pause, "schedule:\n  cron: '0 0 30 2 *'\n"))).toEqual([
      "Line 7, column 9: at /schedule/cron: this cron rule is never due"
    ])
    expect(issuesOf(workflow(pause, "schedule:\n  cron: 'CRON_TZ=Mars/Base 0 9 * * 1-5'\n"))).toEqual([
      'Line 7, column 9: at /schedule/cron: "Mars/Base" is not a known IANA time zone, such as Europe/Paris'
    ])
    expect(issuesOf(workflow(pause, "schedule:\n  cron: '61 * * * *'\n"))[0]).toMatch(
      /^Line 7, column 9: at \/schedule\/cron: the cron rule cannot be read: /
    )
  })
})
