// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { afterAll, describe, expect, it } from "vitest"
import { standardErrorBase } from "../../../src/formats/workflow/WorkflowError.js"
import { uuidV5 } from "../../../src/workflow/engine/uuidV5.js"
import { expressionRuntime, outcomesOf, runId, runOf, startAt } from "./engineFixture.js"
import { executionKeyOf } from "./keys.js"

const runtime = expressionRuntime()
afterAll(() => runtime.dispose())

const succeeded = (output: unknown) => ({ status: "succeeded", output })

describe("set, do and the data between tasks", () => {
  it("evaluates templates part by part and hands each output on", async () => {
    const run = runOf(
      runtime,
      `  - first:
      set:
        n: \${ $data.n + 1 }
        fixed: [1, { a: two }]
        mixed: [x, '\${ $data.n }']
  - second:
      do:
        - inner:
            set:
              doubled: \${ $data.n * 2 }
              kept: \${ $data.fixed }
`
    )
    await run.start({ n: 1 })
    expect(run.ending).toEqual(succeeded({ doubled: 4, kept: [1, { a: "two" }] }))
    expect(outcomesOf(run.steps)).toEqual([
      "/do/0/first completed",
      "/do/1/second completed",
      "/do/1/second/do/0/inner completed"
    ])
    expect(run.steps.map((step) => step.caused_by)).toEqual(["input", 0, 1])
  })

  it("applies if, input.from, output.as and export.as in order", async () => {
    const run = runOf(
      runtime,
      `  - skipped:
      if: $data.go === true
      set: { never: true }
      then: end
  - shaped:
      input:
        from: '\${ ({ value: $data.n }) }'
      set:
        got: \${ $data.value }
        context: \${ $context }
      output:
        as: '\${ ({ ...$data, from: $input.value }) }'
      export:
        as: '\${ ({ ...$context, last: $output.got, input: $input.value, task: $task.name }) }'
  - reads:
      set:
        context: \${ $context }
`
    )
    await run.start({ n: 5 })
    expect(outcomesOf(run.steps)).toEqual(["/do/0/skipped skipped", "/do/1/shaped completed", "/do/2/reads completed"])
    expect(run.ending).toEqual(succeeded({ context: { last: 5, input: 5, task: "shaped" } }))
  })

  it("a condition holds unless false or null (§6.2)", async () => {
    const run = runOf(
      runtime,
      `  - zero:
      if: '0'
      set: { zero: true }
      output: { as: '\${ ({ ...$input, ...$data }) }' }
  - empty:
      if: '""'
      set: { empty: true }
      output: { as: '\${ ({ ...$input, ...$data }) }' }
  - missing:
      if: $data.nothing
      set: { missing: true }
  - nulled:
      if: 'null'
      set: { nulled: true }
`
    )
    await run.start({})
    expect(run.ending).toEqual(succeeded({ zero: true, empty: true }))
  })

  it("gives $task, $workflow and $runtime (§5.2)", async () => {
    const run = runOf(
      runtime,
      `  - look:
      set:
        task: \${ $task }
        workflow: \${ $workflow }
        runtime: \${ $runtime }
        now: \${ new Date().toISOString() }
`
    )
    await run.start({ n: 1 })
    const output = (run.ending as { output: Record<string, unknown> }).output
    const at = { iso8601: "2026-03-01T00:00:00.000Z", epoch: { seconds: startAt / 1000, milliseconds: startAt } }
    expect(output.task).toEqual({
      name: "look",
      reference: "/do/0/look",
      definition: { kind: "set" },
      input: { n: 1 },
      startedAt: at
    })
    expect(output.workflow).toEqual({
      id: runId,
      definition: { document: { dsl: "1.0.3", namespace: "test", name: "flow", version: "1.0.0" } },
      input: { n: 1 },
      startedAt: at
    })
    expect(output.runtime).toEqual({ name: "@runledger/core", version: "0.1.0", metadata: { type: "workflow" } })
    expect(output.now).toBe("2026-03-01T00:00:00.000Z")
  })

  it("applies the document's input.from and output.as", async () => {
    const run = runOf(
      runtime,
      `  - a:
      set:
        n: \${ $data.x + 1 }
`,
      `input:
  from: '\${ ({ x: $data.given * 10 }) }'
output:
  as: '\${ ({ result: $data.n, run: $workflow.id }) }'
`
    )
    await run.start({ given: 2 })
    expect(run.ending).toEqual(succeeded({ result: 21, run: runId }))
  })

  it("rejects the run when the document's input.from fails", async () => {
    const run = runOf(runtime, "  - a:\n      set: { n: 1 }\n", "input:\n  from: '${ $data.x.y.z }'\n")
    await run.start({})
    expect(run.ending).toMatchObject({
      status: "rejected",
      reason: "invalid_input",
      detail: expect.stringMatching(/^An expression failed: \/input\/from: .* \(at \/input\/from\)$/)
    })
  })
})

describe("flow", () => {
  it("jumps forward and back, by switch and by then", async () => {
    const run = runOf(
      runtime,
      `  - count:
      set:
        n: \${ ($data.n ?? 0) + 1 }
  - loop:
      switch:
        - more:
            when: $data.n < 3
            then: count
        - done:
            then: finish
  - skipped:
      set: { never: true }
  - finish:
      set:
        total: \${ $data.n }
`
    )
    await run.start({})
    expect(run.ending).toEqual(succeeded({ total: 3 }))
    expect(outcomesOf(run.steps).filter((line) => line.startsWith("/do/0"))).toHaveLength(3)
    expect(run.steps.find((step) => step.reference === "/do/0/count" && step.run === 2)?.caused_by).toBe(1)
    expect(outcomesOf(run.steps)).not.toContain("/do/2/skipped completed")
  })

  it("a switch without a chosen case follows its own then", async () => {
    const run = runOf(
      runtime,
      `  - choose:
      switch:
        - never:
            when: 'false'
            then: end
      then: last
  - skipped:
      set: { never: true }
  - last:
      set: { last: true }
`
    )
    await run.start({})
    expect(run.ending).toEqual(succeeded({ last: true }))
  })

  it("exit leaves the list and end ends the run", async () => {
    const run = runOf(
      runtime,
      `  - outer:
      do:
        - leave:
            set: { left: true }
            then: exit
        - never:
            set: { never: true }
  - stop:
      set:
        stopped: \${ $data.left }
      then: end
  - never:
      set: { never: true }
`
    )
    await run.start({})
    expect(run.ending).toEqual(succeeded({ stopped: true }))
  })
})

describe("for", () => {
  it("iterates with each/at names, hands each output on, and stops on while", async () => {
    const run = runOf(
      runtime,
      `  - total:
      for:
        each: line
        at: position
        in: $data.lines
      while: ($data.sum ?? 0) < 150
      do:
        - add:
            set:
              sum: \${ ($data.sum ?? 0) + $line.amount_cents }
              counted: \${ $position + 1 }
`
    )
    await run.start({ lines: [{ amount_cents: 120 }, { amount_cents: 80 }, { amount_cents: 45 }] })
    expect(run.ending).toEqual(succeeded({ sum: 200, counted: 2 }))
  })

  it("gives the spec's example without while", async () => {
    const run = runOf(
      runtime,
      `  - total:
      for:
        in: $data.lines
      do:
        - add:
            set:
              sum: \${ ($data.sum ?? 0) + $item.amount_cents }
              counted: \${ $index + 1 }
`
    )
    await run.start({ lines: [{ amount_cents: 120 }, { amount_cents: 80 }, { amount_cents: 45 }] })
    expect(run.ending).toEqual(succeeded({ sum: 245, counted: 3 }))
  })

  it("hands its input on for an empty list, stops on exit, raises for a non-list", async () => {
    const empty = runOf(
      runtime,
      "  - each:\n      for: { in: $data.xs }\n      do:\n        - a:\n            set: { x: 1 }\n"
    )
    await empty.start({ xs: [], kept: true })
    expect(empty.ending).toEqual(succeeded({ xs: [], kept: true }))

    const exited = runOf(
      runtime,
      `  - each:
      for: { in: $data.xs }
      do:
        - a:
            set:
              last: \${ $item }
            then: exit
`
    )
    await exited.start({ xs: [1, 2, 3] })
    expect(exited.ending).toEqual(succeeded({ last: 1 }))

    const notList = runOf(
      runtime,
      "  - each:\n      for: { in: $data.xs }\n      do:\n        - a:\n            set: { x: 1 }\n"
    )
    await notList.start({ xs: 3 })
    expect(notList.ending).toMatchObject({
      status: "rejected",
      reason: "invalid_input",
      detail: "for.in is not a list: /do/0/each/for/in gave no list (at /do/0/each)"
    })
  })
})

describe("raise", () => {
  it("raises a named error with computed fields and ends the run by its status", async () => {
    const run = runOf(
      runtime,
      `  - fail:
      raise:
        error:
          type: https://example.com/errors/late
          status: \${ $data.status }
          title: Too late
          detail: \${ \`by \${$data.days} days\` }
          kind: \${ $data.kind }
`
    )
    await run.start({ status: 422, days: 3, kind: "late_kind" })
    expect(run.ending).toEqual({
      status: "rejected",
      reason: "invalid_input",
      detail: "Too late: by 3 days (at /do/0/fail)",
      cause: { step: "do/0/fail" }
    })
    expect(run.steps[0]).toMatchObject({
      outcome: "raised",
      error: { type: "https://example.com/errors/late", title: "Too late" }
    })
  })

  it("raises ERR/configuration 400 when the computed error lacks a type or status", async () => {
    const run = runOf(
      runtime,
      `  - fail:
      raise:
        error:
          type: \${ $data.type }
          status: 500
`
    )
    await run.start({})
    expect(run.ending).toMatchObject({ status: "rejected", reason: "invalid_input" })
    expect(run.steps[0]!.error).toEqual({
      type: `${standardErrorBase}configuration`,
      title: "The raised error is incomplete"
    })
  })

  it("5xx errors reject the run unavailable, 408 and 429 too", async () => {
    for (const status of [500, 503, 408, 429]) {
      const run = runOf(
        runtime,
        `  - fail:\n      raise:\n        error:\n          type: https://example.com/x\n          status: ${status}\n`
      )
      await run.start({})
      expect(run.ending).toMatchObject({
        status: "rejected",
        reason: "unavailable",
        detail: "https://example.com/x (at /do/0/fail)"
      })
    }
  })
})

describe("wait and timeouts", () => {
  it("waits on a timer and hands its input on when it fires", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: PT30S\n  - after:\n      set:\n        at: ${ Date.now() }\n")
    await run.start({})
    expect(run.last).toContainEqual({ kind: "arm_timer", id: "1", dueAt: startAt + 30_000 })
    expect(run.steps).toEqual([
      {
        reference: "/do/0/pause",
        run: 1,
        outcome: "waiting",
        name: "pause",
        times: 1,
        caused_by: "input",
        waits_for: "timer"
      }
    ])
    await run.fireNext()
    expect(run.ending).toEqual(succeeded({ at: startAt + 30_000 }))
    expect(run.steps.map((step) => [step.reference, step.outcome, step.caused_by])).toEqual([
      ["/do/0/pause", "completed", "input"],
      ["/do/1/after", "completed", 0]
    ])
  })

  it("a fired timer's time is never before its due time, nor before the last input", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: PT30S\n  - after:\n      set:\n        at: ${ Date.now() }\n")
    await run.start({})
    await run.input({ kind: "timer_fired", key: "1", at: startAt + 1 })
    expect(run.ending).toEqual(succeeded({ at: startAt + 30_000 }))
  })

  it("a computed wait duration works and an invalid one raises ERR/configuration 400", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: ${ $data.wait }\n")
    await run.start({ wait: { minutes: 2 } })
    expect(run.last).toContainEqual({ kind: "arm_timer", id: "1", dueAt: startAt + 120_000 })
    const bad = runOf(runtime, "  - pause:\n      wait: ${ $data.wait }\n")
    await bad.start({ wait: "P1Y" })
    expect(bad.steps[0]!.error?.type).toBe(`${standardErrorBase}configuration`)
  })

  it("a task timeout cancels what is under it and raises ERR/timeout 408 at the task", async () => {
    const run = runOf(
      runtime,
      `  - slow:
      timeout:
        after: PT1M
      do:
        - pause:
            wait: PT1H
`
    )
    await run.start({})
    expect(run.last.filter((output) => output.kind === "arm_timer")).toEqual([
      { kind: "arm_timer", id: "1", dueAt: startAt + 60_000 },
      { kind: "arm_timer", id: "2", dueAt: startAt + 3_600_000 },
      { kind: "arm_timer", id: "3", dueAt: startAt + 30 * 86_400_000 }
    ])
    await run.fire("1")
    expect(outcomesOf(run.steps)).toEqual(["/do/0/slow/do/0/pause cancelled", "/do/0/slow timed_out"])
    expect(run.ending).toMatchObject({
      status: "rejected",
      reason: "unavailable",
      detail: "slow timed out (at /do/0/slow)"
    })
    expect(run.last).toContainEqual({ kind: "cancel_timer", id: "2" })
  })

  it("a task that finishes before its timeout disarms it", async () => {
    const run = runOf(
      runtime,
      "  - quick:\n      timeout:\n        after: PT1M\n      set: { ok: true }\n  - pause:\n      wait: PT1H\n"
    )
    await run.start({})
    expect(run.last).toContainEqual({ kind: "cancel_timer", id: "1" })
  })

  it("the document's timeout ends the run (§1.2: rejected unavailable)", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: PT1H\n", "timeout:\n  after: PT10M\n")
    await run.start({})
    await run.fireNext()
    expect(run.ending).toEqual({ status: "rejected", reason: "unavailable", detail: "The run timed out (at /)" })
    expect(run.last).toContainEqual({ kind: "cancel_timer", id: "1" })
  })

  it("the run's longest duration cancels it with kind overrun", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: PT1H\n")
    await run.start({}, { limits: { endsBy: startAt + 600_000 } })
    await run.fireNext()
    expect(run.ending).toMatchObject({ status: "rejected", reason: "cancelled", kind: "overrun" })
  })
})

describe("emit", () => {
  it("emits with an id derived from the emit key, the step's time and the input handed on", async () => {
    const run = runOf(
      runtime,
      `  - announce:
      emit:
        event:
          with:
            type: com.example.done
            source: https://example.com/x
            subject: \${ $data.number }
            data: { number: '\${ $data.number }' }
`
    )
    await run.start({ number: "A-1" })
    const id = uuidV5(executionKeyOf("/do/0/announce", 1))
    expect(run.outputs).toContainEqual({
      kind: "emit",
      id,
      event: {
        type: "com.example.done",
        source: "https://example.com/x",
        subject: "A-1",
        data: { number: "A-1" },
        id,
        time: "2026-03-01T00:00:00.000Z"
      }
    })
    expect(run.ending).toEqual(succeeded({ number: "A-1" }))
  })

  it("counts an emitted event among those the run took, so the run never takes it (§8.1, ADR 0420)", async () => {
    const run = runOf(
      runtime,
      `  - announce:
      emit:
        event:
          with: { type: com.example.done, source: https://example.com/x }
  - hear:
      listen:
        to:
          one:
            with: { type: com.example.done }
`
    )
    const started = await run.start({})
    const id = uuidV5(executionKeyOf("/do/0/announce", 1))
    expect(started?.seen).toEqual([id])
    const emitted = { id, type: "com.example.done", source: "https://example.com/x", time: "2026-03-01T00:00:00.000Z" }
    expect(await run.offer(emitted, "record-of-the-emit")).toBeUndefined()
    expect((await run.offer({ ...emitted, id: "another", data: 2 }, "record-2"))?.seen).toEqual(["another", "record-2"])
    expect(run.ending).toEqual(succeeded([2]))
  })

  it("raises ERR/validation 400 for computed reserved types, sources and attributes, and oversized events", async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      [
        "type: ${ 'run_started' }\n            source: https://x.example",
        "the type run_started is kept by the runtime"
      ],
      ["type: t.x\n            source: ${ '/runs/1' }", "sources starting /runs/ are kept by the runtime"],
      ["type: ${ '' }\n            source: https://x.example", "type is required text"],
      ["type: t.x\n            source: https://x.example\n            data: ${ 'x'.repeat(250000) }", "the event is"]
    ]
    for (const [attributes, words] of cases) {
      const run = runOf(
        runtime,
        `  - announce:\n      emit:\n        event:\n          with:\n            ${attributes}\n`
      )
      await run.start({})
      expect(run.steps[0]!.error).toEqual({
        type: `${standardErrorBase}validation`,
        title: "The emitted event is invalid"
      })
      expect((run.ending as { detail: string }).detail).toContain(words)
    }
  })
})

describe("stale inputs", () => {
  it("answers undefined for inputs that change nothing", async () => {
    const run = runOf(runtime, "  - pause:\n      wait: PT1M\n")
    expect(await run.input({ kind: "timer_fired", key: "1", at: startAt })).toBeUndefined()
    await run.start({})
    expect(await run.start({})).toBeUndefined()
    expect(await run.input({ kind: "timer_fired", key: "99", at: startAt })).toBeUndefined()
    expect(
      await run.input({ kind: "call_answered", key: "x", at: startAt, answer: { status: "failed" } })
    ).toBeUndefined()
    await run.fireNext()
    expect(run.ending?.status).toBe("succeeded")
    expect(await run.input({ kind: "timer_fired", key: "1", at: startAt })).toBeUndefined()
    expect(await run.cancel()).toBeUndefined()
  })
})
