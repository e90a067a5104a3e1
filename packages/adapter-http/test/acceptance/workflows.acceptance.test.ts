import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"
import { asking, catchingCall, x } from "./workflowDocuments.js"

/** A workflow document: the header, optional top-level keys, then the root task list. */
const workflow = (tasks: string, head = "") =>
  `document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\n${head}do:\n${tasks}`

/** A computation function doubling `n`; `raise: true` makes it raise instead. */
const doubler = `---
description: Doubles n
language: typescript
input:
  schema: { type: object, required: [n], properties: { n: { type: number } } }
---
export default function (input: Input): Json {
  return { n: input.n * 2 }
}
`

const raising = `---
description: Always raises
language: typescript
---
export default function (input: Json): Json {
  throw new Error("no")
}
`

/** How long a case waits for what its run does (10 s, within the test's 30 s), and how often it looks (20 ms). */
const workflowWait = [10_000, 20] as const

/** A try around one call whose caught error the workflow outputs: how each callee ending maps to an error. */
const caughtCall = (type: string, name: string, input: string, more = "", filter = "") =>
  catchingCall(type, name, { input: `              input: ${input}\n${more}`, filter })

interface Case {
  readonly name: string
  readonly source: string
  readonly input?: unknown
  /** What the test does while the run waits, given the run id. */
  readonly meanwhile?: (run: string, base: string, server: AcceptanceServer) => Promise<void>
  readonly ended: Record<string, unknown>
}

/** One case per task kind (workflow-format.md §3.2) and per common field (§3.1). */
const taskKinds: ReadonlyArray<Case> = [
  {
    name: "set evaluates its template",
    source: workflow(`  - s:\n      set:\n        a: ${x} $data.n + 1 }\n        b: literal\n`),
    input: { n: 1 },
    ended: { status: "succeeded", output: { a: 2, b: "literal" } }
  },
  {
    name: "do runs a nested list",
    source: workflow(
      `  - outer:\n      do:\n        - one:\n            set: { v: 1 }\n        - two:\n            set:\n              v: ${x} $data.v + 1 }\n`
    ),
    ended: { status: "succeeded", output: { v: 2 } }
  },
  {
    name: "switch follows the first case that holds, and a jump skips ahead",
    source: workflow(
      `  - route:\n      switch:\n        - big:\n            when: $data.n > 10\n            then: large\n        - otherwise:\n            then: small\n  - small:\n      set: { size: small }\n      then: end\n  - large:\n      set: { size: large }\n`
    ),
    input: { n: 11 },
    ended: { status: "succeeded", output: { size: "large" } }
  },
  {
    name: "for runs its body per item, each on the last output",
    source: workflow(
      `  - total:\n      for:\n        each: line\n        in: $data.lines\n      do:\n        - add:\n            set:\n              sum: ${x} ($data.sum ?? 0) + $line }\n`
    ),
    input: { lines: [120, 80, 45] },
    ended: { status: "succeeded", output: { sum: 245 } }
  },
  {
    name: "fork gives its branches' outputs in written order",
    source: workflow(
      `  - both:\n      fork:\n        branches:\n          - left:\n              set: { side: left }\n          - right:\n              set: { side: right }\n`
    ),
    ended: { status: "succeeded", output: [{ side: "left" }, { side: "right" }] }
  },
  {
    name: "fork with compete gives the first branch to finish",
    source: workflow(
      `  - race:\n      fork:\n        compete: true\n        branches:\n          - slow:\n              wait: { seconds: 30 }\n          - fast:\n              set: { won: fast }\n`
    ),
    ended: { status: "succeeded", output: { won: "fast" } }
  },
  {
    name: "try catches a raise and its catch.do gives the output",
    source: workflow(
      `  - guarded:\n      try:\n        - fail:\n            raise:\n              error:\n                type: https://example.com/errors/nope\n                status: 422\n                title: Nope\n      catch:\n        errors:\n          with: { status: 422 }\n        as: e\n        do:\n          - recover:\n              set:\n                caught: ${x} $e.title }\n`
    ),
    ended: { status: "succeeded", output: { caught: "Nope" } }
  },
  {
    name: "an uncaught 4xx raise rejects the run invalid_input with the error's words",
    source: workflow(
      `  - fail:\n      raise:\n        error:\n          type: https://example.com/errors/nope\n          status: 422\n          title: Nope\n`
    ),
    ended: { status: "rejected", rejection: { reason: "invalid_input", detail: "Nope (at /do/0/fail)" } }
  },
  {
    name: "retry runs the try list again until its count is spent",
    source: workflow(
      `  - again:\n      try:\n        - fail:\n            raise:\n              error:\n                type: https://example.com/errors/busy\n                status: 503\n      catch:\n        retry:\n          delay: { milliseconds: 10 }\n          limit:\n            attempt: { count: 2 }\n        do:\n          - gave-up:\n              set: { gave_up: true }\n`
    ),
    ended: { status: "succeeded", output: { gave_up: true } }
  },
  {
    name: "wait hands its input on when its timer fires",
    source: workflow(`  - pause:\n      wait: { milliseconds: 20 }\n`),
    input: { kept: 1 },
    ended: { status: "succeeded", output: { kept: 1 } }
  },
  {
    name: "listen takes an event sent to the run",
    source: workflow(
      `  - hear:\n      listen:\n        to:\n          one:\n            with: { type: com.example.ping }\n      output:\n        as: ${x} $data[0] }\n`
    ),
    meanwhile: async (run, base, server) => {
      const sent = await server.send("POST", `${base}/runs/${run}/events`, {
        event: { type: "com.example.ping", data: { pong: true } }
      })
      expect(sent.status).toBe(200)
    },
    ended: { status: "succeeded", output: { pong: true } }
  },
  {
    name: "listen all takes one event per filter, in filter order",
    source: workflow(
      `  - hear:\n      listen:\n        to:\n          all:\n            - with: { type: com.example.a }\n            - with: { type: com.example.b }\n`
    ),
    meanwhile: async (run, base, server) => {
      await server.send("POST", `${base}/runs/${run}/events`, { event: { type: "com.example.b", data: "b" } })
      await server.send("POST", `${base}/runs/${run}/events`, { event: { type: "com.example.a", data: "a" } })
    },
    ended: { status: "succeeded", output: ["a", "b"] }
  },
  {
    name: "emit records the event and hands its input on",
    source: workflow(
      `  - tell:\n      emit:\n        event:\n          with:\n            type: com.example.told\n            source: https://example.com/flows\n            data:\n              said: '${x} $data.word }'\n`
    ),
    input: { word: "hi" },
    ended: { status: "succeeded", output: { word: "hi" } }
  },
  {
    name: "if skips a task, input.from, output.as and export.as transform",
    source: workflow(
      `  - skipped:\n      if: $data.n > 100\n      set: { never: true }\n  - shaped:\n      input:\n        from: '${x} ({ m: $data.n }) }'\n      set:\n        doubled: ${x} $data.m * 2 }\n      output:\n        as: '${x} ({ ...$data, shaped: true }) }'\n      export:\n        as: '${x} ({ seen: $output.doubled }) }'\n  - last:\n      set:\n        from_context: ${x} $context.seen }\n`
    ),
    input: { n: 4 },
    ended: { status: "succeeded", output: { from_context: 8 } }
  },
  {
    name: "a task timeout raises ERR/timeout 408",
    source: workflow(`  - slow:\n      wait: { seconds: 30 }\n      timeout:\n        after: { milliseconds: 50 }\n`),
    ended: { status: "rejected", rejection: { reason: "unavailable" } }
  },
  {
    name: "call runs a computation function and takes its output",
    source: workflow(
      `  - twice:\n      call: run_definition\n      with:\n        type: computation\n        name: double\n        input: ${x} $data }\n`
    ),
    input: { n: 21 },
    ended: { status: "succeeded", output: { n: 42 } }
  }
]

const errorType = (name: string) => `https://serverlessworkflow.io/spec/1.0.0/errors/${name}`

/** One case per row of the callee-ending table this runtime can produce here (workflow-format.md §7.4). */
const calleeEndings: ReadonlyArray<Case> = [
  {
    name: "rejected invalid_input (input schema) → ERR/validation 400",
    source: caughtCall("computation", "double", "{ m: 1 }"),
    ended: { status: "succeeded", output: { type: errorType("validation"), status: 400, kind: "input_schema" } }
  },
  {
    name: "rejected not_found → ERR/configuration 404",
    source: caughtCall("computation", "missing", "{}"),
    ended: { status: "succeeded", output: { type: errorType("configuration"), status: 404, kind: null } }
  },
  {
    name: "rejected conflict (unworkable) → ERR/runtime 409",
    source: caughtCall("computation", "raising", "{}"),
    ended: { status: "succeeded", output: { type: errorType("runtime"), status: 409, kind: "unworkable" } }
  },
  {
    name: "a paused function → ERR/runtime 409 with kind paused",
    source: caughtCall("computation", "paused-double", "{ n: 1 }"),
    ended: { status: "succeeded", output: { type: errorType("runtime"), status: 409, kind: "paused" } }
  },
  {
    name: "rejected cancelled → PROB/cancelled 409, caught only by a catch that names it (W6)",
    source: caughtCall(
      "interaction",
      "ask",
      "{}",
      "",
      "        errors:\n          with: { type: https://on.auto/problems/cancelled }\n"
    ),
    meanwhile: (run, base, server) => cancelCallee(run, base, server),
    ended: {
      status: "succeeded",
      output: { type: "https://on.auto/problems/cancelled", status: 409, kind: "requested" }
    }
  },
  {
    name: "rejected cancelled, not caught → the workflow rejected invalid_input with the step's cause",
    source: caughtCall("interaction", "ask", "{}"),
    meanwhile: (run, base, server) => cancelCallee(run, base, server),
    ended: {
      status: "rejected",
      rejection: { reason: "invalid_input", cause: { step: "do/0/attempt/try/0/call-it", status: "rejected" } }
    }
  },
  {
    name: "ran past the task's wait → ERR/timeout 408, the callee cancelled with kind deadline",
    source: caughtCall(
      "interaction",
      "ask",
      "{}",
      "            timeout:\n              after: { milliseconds: 300 }\n"
    ),
    ended: { status: "succeeded", output: { type: errorType("timeout"), status: 408, kind: null } }
  },
  {
    name: "succeeded: the interaction's answer is the step's output",
    source: workflow(`  - ask:\n      call: run_definition\n      with: { type: interaction, name: ask }\n`),
    meanwhile: async (run, base, server) => {
      const request = await waitFor(
        async () => {
          const open = await server.send("GET", `${base}/interactions`)
          return (
            open.body.interactions?.find((candidate: any) => candidate.within?.run_id === run) ??
            open.body.interactions?.[0]
          )
        },
        ...workflowWait
      )
      const answered = await server.send("POST", `${base}/runs/${request.run_id}/answer`, {
        answer: { ok: true }
      })
      expect(answered.status, JSON.stringify([request, answered.body])).toBe(200)
    },
    ended: { status: "succeeded", output: { ok: true } }
  }
]

/** Cancels the interaction run the workflow run `run` waits for. */
const cancelCallee = async (run: string, base: string, server: AcceptanceServer) => {
  const callee = await waitFor(
    async () => {
      const runs = await server.send("GET", `${base}/runs?type=interaction`)
      return runs.body.runs.find((candidate: any) => candidate.within?.run_id === run)
    },
    ...workflowWait
  )
  expect((await server.send("POST", `${base}/runs/${callee.run_id}/cancel`, { reason: "No" })).status).toBe(200)
}

onEveryStore("workflows over HTTP", (store) => {
  let server: AcceptanceServer
  let base: string
  let count = 0
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
    const id = `flows-${Math.random().toString(36).slice(2, 8)}`
    expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
    base = `/v1/orgs/local/playbooks/${id}`
    /** Saves a definition, sending the save again while no checker is ready (503 says to). */
    const save = async (type: string, name: string, source: string) => {
      for (let attempt = 0; ; attempt++) {
        const saved = await server.send("POST", `${base}/definitions/${type}`, { name, source, diagram: "none" })
        if (saved.status !== 503 || attempt === 20) return expect(saved.status, JSON.stringify(saved.body)).toBe(201)
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    }
    await save("computation", "double", doubler)
    await save("computation", "paused-double", doubler)
    await save("computation", "raising", raising)
    await save("interaction", "ask", asking)
    expect((await server.send("POST", `${base}/definitions/computation/paused-double/pause`, {})).status).toBe(200)
    // The sandbox's workers start with the first run; on a loaded machine that can take longer than a run's 10 s.
    await server.send("POST", `${base}/definitions/computation/double/run`, { input: { n: 1 } })
  }, 120_000)
  afterAll(() => server?.close())

  /** Saves the case's workflow, runs it, does what it does meanwhile, and waits for its end. */
  const runCase = async (testCase: Case) => {
    const name = `case-${++count}`
    const saved = await server.send("POST", `${base}/definitions/workflow`, { name, source: testCase.source })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const started = await server.send("POST", `${base}/definitions/workflow/${name}/run`, {
      ...(testCase.input === undefined ? {} : { input: testCase.input })
    })
    expect([200, 409, 422, 503]).toContain(started.status)
    const runId = started.body.run_id ?? started.headers.get("x-run-id")
    if (testCase.meanwhile !== undefined) await testCase.meanwhile(started.body.run_id, base, server)
    const run = await waitFor(
      async () => {
        const read = await server.send("GET", `${base}/runs/${started.body.run_id ?? runId}`)
        return read.body.status === "started" ? undefined : read.body
      },
      ...workflowWait
    )
    expect(run, JSON.stringify(run)).toMatchObject(testCase.ended)
    return run
  }

  describe("each task kind", () => {
    for (const testCase of taskKinds) it(testCase.name, () => runCase(testCase), 30_000)
  })

  describe("each callee ending", () => {
    for (const testCase of calleeEndings) it(testCase.name, () => runCase(testCase), 30_000)
  })

  it("the history shows each input and its steps, with step ids and causes", async () => {
    const run = await runCase(taskKinds[0]!)
    const history = await server.send("GET", `${base}/runs/${run.run_id}/history`)
    const [started, input, step, ended] = history.body.events
    expect([started.type, input.type, step.type, ended.type]).toEqual([
      "run_started",
      "workflow_input_applied",
      "step_finished",
      "run_succeeded"
    ])
    expect(input.data).toMatchObject({ input: { kind: "started" }, step_count: 1, output_kinds: ["settle"] })
    expect(input.data.patch).toBeUndefined()
    expect(step).toMatchObject({ id: `${input.id}_1`, metadata: { causation_id: input.id } })
    const one = await server.send("GET", `${base}/events/${input.id}_1`)
    expect(one.body).toMatchObject({ id: `${input.id}_1`, type: "step_finished", data: { name: "s", run: 1 } })
  })
})
