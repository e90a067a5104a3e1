import { Ledger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Either, Layer } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { echoFormats } from "./echoFormat.js"
import { makeRuntime } from "./runtimeFixture.js"

let fixture: ReturnType<typeof makeRuntime>
beforeEach(async () => {
  fixture = makeRuntime()
  await fixture.call("full", "create_playbook", { playbook: "finance", name: "Finance" })
  await ok("create_definition", { type: "computation", name: "echo", source: "Echoes", diagram: "none" })
  await ok("create_definition", { type: "computation", name: "other", source: "Other", diagram: "none" })
  await ok("create_definition", { type: "interaction", name: "ask", source: "Asks", diagram: "none" })
})
afterEach(() => fixture.runtime.dispose())

const call = (operation: string, input: unknown) => fixture.call("full", operation, input, { playbook: "finance" })
const ok = async (operation: string, input: unknown): Promise<any> => {
  const result = await call(operation, input)
  if (Either.isLeft(result)) throw new Error(`${operation} refused: ${JSON.stringify(result.left)}`)
  return result.right.output
}
const refused = async (operation: string, input: unknown) => {
  const result = await call(operation, input)
  if (Either.isRight(result)) throw new Error(`${operation} was expected to be refused`)
  return result.left
}
const runFacts = (runId: string) =>
  fixture.runtime.runPromise(
    Effect.flatMap(Ledger, (ledger) => ledger.readStream(`playbook/acme/finance/runs/${runId}`))
  )
const runId = "0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a"

describe("runs", () => {
  it("runs a function within the request, recording run_started then run_succeeded", async () => {
    const run = await ok("run_definition", { type: "computation", name: "echo", input: { a: 1 } })
    expect(run).toMatchObject({
      type: "computation",
      name: "echo",
      definition_version: 1,
      status: "succeeded",
      started_by: { id: "key:build-bot", name: "build-bot" },
      output: { echo: { a: 1 } }
    })
    expect(run.record).toEqual({ version: 1 })
    const facts = await runFacts(run.run_id)
    expect(facts.map((fact) => fact.type)).toEqual(["run_started", "run_succeeded"])
    expect(facts[0].metadata).toMatchObject({ run_id: run.run_id, correlation_id: run.run_id, causation_id: null })
    expect(facts[1].metadata.causation_id).toBe(facts[0].id)
    expect(facts[0].data).toMatchObject({ input: { a: 1 }, calls_tools: false, finishes_later: false })
    expect(await ok("get_run", { run_id: run.run_id })).toEqual(run)
  })

  it("refuses inputs over 256 KiB or 512 levels deep at /input, recording nothing", async () => {
    let deep: unknown = 1
    for (let level = 0; level < 513; level++) deep = [deep]
    const tooDeep = await refused("run_definition", { type: "computation", name: "echo", input: deep })
    expect(tooDeep.errors?.[0].pointer).toBe("/input")
    const tooBig = await refused("run_definition", { type: "computation", name: "echo", input: "x".repeat(262_145) })
    expect(tooBig.errors?.[0].pointer).toBe("/input")
    let fits: unknown = 1
    for (let level = 0; level < 512; level++) fits = [fits]
    expect((await ok("run_definition", { type: "computation", name: "echo", input: fits })).status).toBe("succeeded")
  })

  describe("retrying under a run id", () => {
    it("succeeded: returns the recorded output; nothing runs again", async () => {
      const first = await ok("run_definition", { type: "computation", name: "echo", input: { a: 1 }, run_id: runId })
      const again = await ok("run_definition", { type: "computation", name: "echo", input: { a: 1 }, run_id: runId })
      expect(again.output).toEqual(first.output)
      expect((await runFacts(runId)).length).toBe(2)
    })

    it("the same input in another key order is the same input", async () => {
      await ok("run_definition", { type: "computation", name: "echo", input: { a: 1, b: 2 }, run_id: runId })
      await ok("run_definition", { type: "computation", name: "echo", input: { b: 2, a: 1 }, run_id: runId })
      expect((await runFacts(runId)).length).toBe(2)
    })

    it("another definition or another input under the same id is conflict", async () => {
      await ok("run_definition", { type: "computation", name: "echo", input: { a: 1 }, run_id: runId })
      expect(
        (await refused("run_definition", { type: "computation", name: "other", input: { a: 1 }, run_id: runId })).reason
      ).toBe("conflict")
      expect(
        (await refused("run_definition", { type: "computation", name: "echo", input: { a: 2 }, run_id: runId })).reason
      ).toBe("conflict")
      expect((await runFacts(runId)).length).toBe(2)
    })

    it("rejected as invalid_input: returns the same rejection", async () => {
      const first = await refused("run_definition", {
        type: "computation",
        name: "echo",
        input: { refuse: true },
        run_id: runId
      })
      expect(first.reason).toBe("invalid_input")
      const again = await refused("run_definition", {
        type: "computation",
        name: "echo",
        input: { refuse: true },
        run_id: runId
      })
      expect([again.reason, again.errors]).toEqual([first.reason, first.errors])
      expect((await runFacts(runId)).length).toBe(2)
    })

    it("no final result (unavailable): runs again as a new attempt", async () => {
      expect(
        (await refused("run_definition", { type: "computation", name: "echo", input: { flaky: true }, run_id: runId }))
          .reason
      ).toBe("unavailable")
      expect(
        (await refused("run_definition", { type: "computation", name: "echo", input: { flaky: true }, run_id: runId }))
          .reason
      ).toBe("unavailable")
      const facts = await runFacts(runId)
      expect(facts.map((fact) => fact.type)).toEqual(["run_started", "run_rejected", "run_started", "run_rejected"])
      expect((facts[2].data as { attempt: number }).attempt).toBe(2)
    })

    it("no final result (failed inside the runtime): records run_failed, and runs again", async () => {
      const failed = await refused("run_definition", {
        type: "computation",
        name: "echo",
        input: { die: true },
        run_id: runId
      })
      expect(failed.reason).toBe("internal")
      expect((await ok("get_run", { run_id: runId })).status).toBe("failed")
      await refused("run_definition", { type: "computation", name: "echo", input: { die: true }, run_id: runId })
      expect((await runFacts(runId)).map((fact) => fact.type)).toEqual([
        "run_started",
        "run_failed",
        "run_started",
        "run_failed"
      ])
    })

    it("a new attempt runs on the latest version and records it", async () => {
      await refused("run_definition", { type: "computation", name: "echo", input: { flaky: true }, run_id: runId })
      await ok("update_definition", { type: "computation", name: "echo", source: "Echoes v2", diagram: "none" })
      await refused("run_definition", { type: "computation", name: "echo", input: { flaky: true }, run_id: runId })
      expect((await ok("get_run", { run_id: runId })).definition_version).toBe(2)
    })

    it("still waits: returns the run as it stands, started, and starts nothing", async () => {
      const first = await ok("run_definition", { type: "interaction", name: "ask", input: {}, run_id: runId })
      expect(first.status).toBe("started")
      const again = await ok("run_definition", { type: "interaction", name: "ask", input: {}, run_id: runId })
      expect(again.status).toBe("started")
      expect((await runFacts(runId)).length).toBe(1)
    })

    it("cancelled: returns its cancellation (409)", async () => {
      await ok("run_definition", { type: "interaction", name: "ask", input: {}, run_id: runId })
      await ok("cancel_run", { run_id: runId, reason: "No longer needed" })
      const facts = await runFacts(runId)
      expect(facts.map((fact) => fact.type)).toEqual(["run_started", "run_cancel_requested"])
      // The interaction engine ends a cancelled run; record that ending as it would.
      await fixture.runtime.runPromise(
        Effect.flatMap(Ledger, (ledger) =>
          ledger.append([
            {
              stream: `playbook/acme/finance/runs/${runId}`,
              expected: 2,
              facts: [
                {
                  id: "0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7b",
                  type: "run_rejected",
                  data: { reason: "cancelled", kind: "requested", detail: "No longer needed" },
                  metadata: {
                    correlation_id: runId,
                    causation_id: facts[1].id,
                    at: new Date().toISOString(),
                    by: "runtime",
                    run_id: runId
                  }
                }
              ]
            }
          ])
        )
      )
      const again = await refused("run_definition", { type: "interaction", name: "ask", input: {}, run_id: runId })
      expect([again.reason, again.kind]).toEqual(["cancelled", "requested"])
    })
  })

  it("reads no stream to start a run under an id it made, and reads the stream of an id given", async () => {
    const reads: Array<string> = []
    const counted = Layer.scopedContext(
      Effect.map(Layer.build(MemoryStore.layer), (context) => {
        const inner = Context.get(context, Ledger)
        return Context.add(
          context,
          Ledger,
          Ledger.of({
            ...inner,
            readStream: (stream, ...rest) => {
              reads.push(stream)
              return inner.readStream(stream, ...rest)
            }
          })
        )
      })
    )
    const counting = makeRuntime({}, echoFormats, counted)
    try {
      const as = (input: unknown) => counting.call("full", "run_definition", input, { playbook: "finance" })
      await counting.call("full", "create_playbook", { playbook: "finance", name: "Finance" })
      await counting.call(
        "full",
        "create_definition",
        { type: "computation", name: "echo", source: "Echoes", diagram: "none" },
        { playbook: "finance" }
      )
      const made = await as({ type: "computation", name: "echo", input: { a: 1 } })
      if (Either.isLeft(made)) throw new Error(JSON.stringify(made.left))
      const madeId = made.right.output as { run_id: string }
      expect(reads.filter((stream) => stream.endsWith(`/runs/${madeId.run_id}`))).toEqual([])
      await as({ type: "computation", name: "echo", input: { a: 1 }, run_id: runId })
      expect(reads.filter((stream) => stream.endsWith(`/runs/${runId}`))).toHaveLength(1)
    } finally {
      await counting.runtime.dispose()
    }
  })

  it("cancel_run refuses an unknown run, an ended run, and a run that ends within its request", async () => {
    expect((await refused("cancel_run", { run_id: runId })).reason).toBe("not_found")
    const run = await ok("run_definition", { type: "computation", name: "echo", input: {} })
    expect((await refused("cancel_run", { run_id: run.run_id })).reason).toBe("conflict")
    await ok("run_definition", { type: "interaction", name: "ask", input: {}, run_id: runId })
    await ok("cancel_run", { run_id: runId })
    await ok("cancel_run", { run_id: runId })
    expect((await runFacts(runId)).map((fact) => fact.type)).toEqual(["run_started", "run_cancel_requested"])
    expect((await refused("cancel_run", { run_id: runId, reason: "bad\u0007" })).errors?.[0].pointer).toBe("/reason")
  })

  it("lists runs newest first, filtered and paged with cursors refused elsewhere", async () => {
    for (let index = 0; index < 5; index++)
      await ok("run_definition", { type: "computation", name: "echo", input: { index } })
    await ok("run_definition", { type: "computation", name: "other", input: {} })
    await refused("run_definition", { type: "computation", name: "echo", input: { refuse: true } })
    const first = await ok("list_runs", { limit: 3 })
    expect(first.runs.length).toBe(3)
    expect(first.has_more).toBe(true)
    expect(first.runs[0].output).toBeUndefined()
    const rest = await ok("list_runs", { limit: 10, cursor: first.next_cursor })
    expect(rest.runs.length).toBe(4)
    expect(rest.has_more).toBe(false)
    expect(rest.next_cursor).toBeNull()
    const all = [...first.runs, ...rest.runs]
    expect(new Set(all.map((run: any) => run.run_id)).size).toBe(7)
    const started = all.map((run: any) => run.started_at)
    expect(started).toEqual([...started].sort().reverse())
    expect((await ok("list_runs", { name: "other", type: "computation" })).runs.length).toBe(1)
    const rejected = await ok("list_runs", { status: "rejected" })
    expect(rejected.runs.map((run: any) => run.rejection)).toEqual([{ reason: "invalid_input" }])
    expect((await refused("list_runs", { cursor: "bm9wZQ" })).errors?.[0].pointer).toBe("/cursor")
    expect((await refused("list_runs", { limit: 0 })).errors?.[0].pointer).toBe("/limit")
    expect((await refused("list_runs", { limit: 101 })).errors?.[0].pointer).toBe("/limit")
  })

  it("reads a run's history and the playbook's events, with summaries and paging", async () => {
    const run = await ok("run_definition", { type: "computation", name: "echo", input: { a: 1 } })
    const history = await ok("get_run_history", { run_id: run.run_id })
    expect(history.events.map((event: any) => event.type)).toEqual(["run_started", "run_succeeded"])
    expect(history.events[0].summary).toBe("A run of the computation function “echo” started.")
    expect(history.events[0].metadata).toMatchObject({
      stream: `playbook/acme/finance/runs/${run.run_id}`,
      position: 1
    })
    const desc = await ok("get_run_history", { run_id: run.run_id, order: "desc", limit: 1 })
    expect(desc.events.map((event: any) => event.type)).toEqual(["run_succeeded"])
    const next = await ok("get_run_history", { run_id: run.run_id, order: "desc", limit: 1, cursor: desc.next_cursor })
    expect(next.events.map((event: any) => event.type)).toEqual(["run_started"])
    expect(next.has_more).toBe(false)
    expect((await refused("get_run_history", { run_id: runId })).reason).toBe("not_found")

    const events = await ok("list_playbook_events", {})
    expect(events.events[0].type).toBe("run_succeeded")
    expect(events.events.map((event: any) => event.type)).toContain("definition_created")
    expect(events.events.every((event: any) => event.metadata.stream.startsWith("playbook/acme/finance/"))).toBe(true)
    const created = await ok("list_playbook_events", { type: "definition_created", order: "asc" })
    expect(created.events.map((event: any) => event.metadata.definition.name)).toEqual(["echo", "other", "ask"])
    expect(created.events[0].data.source_bytes).toBe(6)
    const tree = await ok("list_playbook_events", { run_id: run.run_id, order: "asc" })
    expect(tree.events.map((event: any) => event.type)).toEqual(["run_started", "run_succeeded"])
    const pages: Array<string> = []
    let cursor: string | null | undefined
    do {
      const page = await ok("list_playbook_events", { limit: 2, order: "asc", ...(cursor ? { cursor } : {}) })
      pages.push(...page.events.map((event: any) => event.id))
      cursor = page.next_cursor
    } while (cursor)
    expect(pages.length).toBe(5)
    expect((await ok("list_playbook_events", { since: "2999-01-01T00:00:00Z" })).events).toEqual([])
    expect((await refused("list_playbook_events", { since: "2026-10-05T24:00:00Z" })).errors?.[0].pointer).toBe(
      "/since"
    )
    expect((await refused("list_playbook_events", { since: "2026-02-30T10:00:00Z" })).errors?.[0].pointer).toBe(
      "/since"
    )
    expect(
      (await refused("list_playbook_events", { cursor: history.next_cursor ?? "eyJzIjoieCIsInAiOjF9" })).errors?.[0]
        .pointer
    ).toBe("/cursor")
  })

  it("shows large values as their size on pages and whole through get_event", async () => {
    const big = "x".repeat(5000)
    const run = await ok("run_definition", { type: "computation", name: "echo", input: { big } })
    const history = await ok("get_run_history", { run_id: run.run_id })
    expect(history.events[0].data.input).toBeUndefined()
    expect(history.events[0].data.input_bytes).toBeGreaterThan(5000)
    expect(JSON.stringify(history.events[1].data).length).toBeLessThanOrEqual(4096)
    const event = await ok("get_event", { event_id: history.events[0].id })
    expect(event.data.input).toEqual({ big })
    for (const id of [`${runId}_0`, `${runId}_02`, "nope"])
      expect((await refused("get_event", { event_id: id })).errors?.[0].pointer).toBe("/event_id")
    expect((await refused("get_event", { event_id: `${runId}_2` })).reason).toBe("not_found")
    expect((await refused("get_event", { event_id: runId })).reason).toBe("not_found")
  })
})

describe("cursors", () => {
  it("refuses a cursor of the right scope whose position the store did not make", async () => {
    const scope = "events:acme/finance/desc////"
    const forged = Buffer.from(JSON.stringify({ s: scope, p: "not-a-position" })).toString("base64url")
    expect((await refused("list_playbook_events", { cursor: forged })).errors?.[0].pointer).toBe("/cursor")
  })
})
