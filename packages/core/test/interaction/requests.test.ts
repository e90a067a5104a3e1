import { describe, expect, it } from "@effect/vitest"
import { InteractionSettings, Ledger, RunLedger, StoreUnavailable } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer, Ref, TestClock } from "effect"
import {
  askDocument,
  askInput,
  interactionFormats,
  runtimeOn,
  startRuntime,
  testSettings
} from "./interactionFixture.js"

const runId = "0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a"

/** A runtime with the ask function saved, and a run of it waiting. */
const waiting = Effect.gen(function* () {
  const runtime = yield* startRuntime()
  yield* runtime.ok("create_definition", { type: "interaction", name: "ask", source: askDocument(), diagram: "none" })
  const run = yield* runtime.ok("run_definition", { type: "interaction", name: "ask", input: askInput, run_id: runId })
  return { ...runtime, run }
})

describe("requests held for an agent", () => {
  it.scoped("a run answers started and waits; the request is listed with every field", () =>
    Effect.gen(function* () {
      const { ok, facts, run } = yield* waiting
      expect(run).toMatchObject({ run_id: runId, status: "started", type: "interaction", name: "ask" })
      expect((yield* facts(runId)).map((fact) => fact.type)).toEqual([
        "run_started",
        "interaction_requested",
        "run_deferred"
      ])
      const page = yield* ok("list_interactions", {})
      expect(page).toEqual({
        interactions: [
          {
            run_id: runId,
            type: "interaction",
            function: "ask",
            version: 1,
            to: "dana@example.com",
            delivery: null,
            message: "Refund $1,234.50 for order A-17?\n",
            takes_answer: true,
            answer_schema: {
              type: "object",
              required: ["decision"],
              properties: { decision: { type: "string", enum: ["grant", "deny"] } }
            },
            requested_at: "1970-01-01T00:00:00.000Z",
            expires_at: "1970-01-01T01:00:00.000Z",
            attempts: 0,
            conversation: null,
            answerer: null,
            reply_refusals: 0,
            standing: "held_for_an_agent"
          }
        ],
        has_more: false,
        next_cursor: null
      })
      expect((yield* ok("get_run", { run_id: runId })).status).toBe("started")
      const again = yield* ok("run_definition", { type: "interaction", name: "ask", input: askInput, run_id: runId })
      expect(again.status).toBe("started")
      expect((yield* facts(runId)).length).toBe(3)
    })
  )

  it.scoped("lists newest first, filters by to, type and function, and pages with a cursor", () =>
    Effect.gen(function* () {
      const { ok, refused } = yield* waiting
      yield* TestClock.adjust("1 second")
      const second = yield* ok("run_definition", {
        type: "interaction",
        name: "ask",
        input: { ...askInput, owner: "eli" }
      })
      const all = yield* ok("list_interactions", {})
      expect(all.interactions.map((request: any) => request.run_id)).toEqual([second.run_id, runId])
      expect((yield* ok("list_interactions", { to: "eli" })).interactions.map((request: any) => request.to)).toEqual([
        "eli"
      ])
      expect((yield* ok("list_interactions", { type: "computation" })).interactions).toEqual([])
      expect((yield* ok("list_interactions", { type: "interaction", function: "ask" })).interactions).toHaveLength(2)
      expect((yield* ok("list_interactions", { function: "other" })).interactions).toEqual([])
      const first = yield* ok("list_interactions", { limit: 1 })
      expect(first).toMatchObject({ has_more: true })
      const next = yield* ok("list_interactions", { limit: 1, cursor: first.next_cursor })
      expect(next.interactions.map((request: any) => request.run_id)).toEqual([runId])
      expect(next.has_more).toBe(false)
      expect((yield* refused("list_interactions", { cursor: "bm9wZQ" })).errors?.[0]?.pointer).toBe("/cursor")
    })
  )

  it.scoped("an answer is checked against the recorded schema, recorded once, and the host ends the run with it", () =>
    Effect.gen(function* () {
      const { ok, refused, facts, ended } = yield* waiting
      const bad = yield* refused("answer_interaction", { run_id: runId, answer: { decision: "maybe" } })
      expect(bad.reason).toBe("invalid_input")
      expect(bad.errors?.map((issue) => issue.pointer)).toEqual(["/answer/decision"])
      const huge = yield* refused("answer_interaction", { run_id: runId, answer: { decision: "x".repeat(65_536) } })
      expect([huge.reason, huge.errors?.[0]?.pointer]).toEqual(["invalid_input", "/answer"])
      const answered = yield* ok("answer_interaction", {
        run_id: runId,
        answer: { decision: "grant" },
        claimed_for: "the CFO"
      })
      expect(answered).toMatchObject({
        run_id: runId,
        answer: { decision: "grant" },
        claimed_for: "the CFO",
        answered_by: { id: "key:build-bot", name: "build-bot" }
      })
      const recorded = (yield* facts(runId)).find((fact) => fact.type === "request_answered")!
      expect([answered.answer_id, answered.answered_at]).toEqual([recorded.id, recorded.metadata.at])
      const run = yield* ended(runId)
      expect(run).toMatchObject({ status: "succeeded", output: { decision: "grant" } })
      expect((yield* facts(runId)).map((fact) => fact.type)).toEqual([
        "run_started",
        "interaction_requested",
        "run_deferred",
        "request_answered",
        "run_succeeded"
      ])
      expect(yield* ok("answer_interaction", { run_id: runId, answer: { decision: "grant" } })).toEqual(answered)
      const other = yield* refused("answer_interaction", { run_id: runId, answer: { decision: "deny" } })
      expect(other.reason).toBe("conflict")
      expect((yield* ok("list_interactions", {})).interactions).toEqual([])
      const retried = yield* ok("run_definition", { type: "interaction", name: "ask", input: askInput, run_id: runId })
      expect(retried.output).toEqual({ decision: "grant" })
    })
  )

  it.scoped(
    "answers not_found for an unknown run, conflict for a run that asks nothing, and claimed_for past 256 bytes",
    () =>
      Effect.gen(function* () {
        const { refused } = yield* waiting
        const unknown = yield* refused("answer_interaction", {
          run_id: "0199a3c4-7d2e-7c1a-9b3f-000000000000",
          answer: 1
        })
        expect(unknown.reason).toBe("not_found")
        const long = yield* refused("answer_interaction", {
          run_id: runId,
          answer: { decision: "grant" },
          claimed_for: "é".repeat(129)
        })
        expect(long.errors?.[0]?.pointer).toBe("/claimed_for")
      })
  )

  it.scoped(
    "an unanswered request expires at expires_at under the TestClock: rejected unanswered/expired, then 410",
    () =>
      Effect.gen(function* () {
        const { ok, refused, ended } = yield* waiting
        yield* TestClock.adjust("59 minutes")
        expect((yield* ok("get_run", { run_id: runId })).status).toBe("started")
        yield* TestClock.adjust("1 minute")
        const run = yield* ended(runId)
        expect(run.rejection).toMatchObject({ reason: "unanswered", kind: "expired" })
        expect(run.ended_at).toBe("1970-01-01T01:00:00.000Z")
        const again = yield* refused("run_definition", {
          type: "interaction",
          name: "ask",
          input: askInput,
          run_id: runId
        })
        expect([again.reason, again.kind, again.status]).toEqual(["unanswered", "expired", 410])
        expect((yield* refused("answer_interaction", { run_id: runId, answer: { decision: "grant" } })).reason).toBe(
          "conflict"
        )
        expect((yield* ok("list_interactions", {})).interactions).toEqual([])
      })
  )

  it.scoped(
    "cancel_run of a waiting request: standing cancelling, then cancelled/requested with the reason as detail",
    () =>
      Effect.gen(function* () {
        const { ok, refused, ended, facts } = yield* waiting
        const cancelled = yield* ok("cancel_run", { run_id: runId, reason: "No longer needed" })
        expect(cancelled.status).toBe("started")
        const run = yield* ended(runId)
        expect(run.rejection).toMatchObject({ reason: "cancelled", kind: "requested", detail: "No longer needed" })
        expect((yield* facts(runId)).map((fact) => fact.type).slice(-2)).toEqual([
          "run_cancel_requested",
          "run_rejected"
        ])
        expect((yield* refused("answer_interaction", { run_id: runId, answer: { decision: "grant" } })).reason).toBe(
          "conflict"
        )
      })
  )

  it.scoped("a cancel asked shows as standing cancelling until a host takes it: here none runs", () =>
    Effect.gen(function* () {
      const store = yield* Layer.build(MemoryStore.layer)
      const core = yield* Layer.build(RunLedger.layer(testSettings, interactionFormats))
      const runtime = yield* runtimeOn(Context.merge(core, store))
      yield* runtime.ok("create_definition", {
        type: "interaction",
        name: "ask",
        source: askDocument(),
        diagram: "none"
      })
      yield* runtime.ok("run_definition", { type: "interaction", name: "ask", input: askInput, run_id: runId })
      expect((yield* runtime.ok("cancel_run", { run_id: runId })).status).toBe("started")
      const listed = (yield* runtime.ok("list_interactions", {})).interactions
      expect(listed.map((request: any) => [request.run_id, request.standing])).toEqual([[runId, "cancelling"]])
      expect((yield* runtime.ok("get_run", { run_id: runId })).status).toBe("started")
      const late = yield* runtime.refused("answer_interaction", { run_id: runId, answer: { decision: "grant" } })
      expect(late.reason).toBe("conflict")
    })
  )

  it.scoped("the playbook's cap on open requests refuses a run past it as unavailable, requests_full", () =>
    Effect.gen(function* () {
      const { ok, refused, ended } = yield* waiting
      yield* ok("run_definition", { type: "interaction", name: "ask", input: askInput })
      const full = yield* refused("run_definition", { type: "interaction", name: "ask", input: askInput })
      expect([full.reason, full.kind]).toEqual(["unavailable", "requests_full"])
      yield* ok("answer_interaction", { run_id: runId, answer: { decision: "deny" } })
      yield* ended(runId)
      expect((yield* ok("run_definition", { type: "interaction", name: "ask", input: askInput })).status).toBe(
        "started"
      )
    }).pipe(
      Effect.provide(Layer.succeed(InteractionSettings, { openRequestCap: 2, sweepMillis: 30_000, concurrency: 4 }))
    )
  )

  it.scoped(
    "the start and its request are one append: a store that breaks while recording it keeps no started run",
    () =>
      Effect.gen(function* () {
        const breaking = yield* Ref.make(true)
        const breakingStore = Layer.effect(
          Ledger,
          Effect.map(Ledger, (ledger) => ({
            ...ledger,
            append: (appends) =>
              Effect.flatMap(Ref.get(breaking), (breaks) =>
                breaks && appends.some((append) => append.facts.some((fact) => fact.type === "interaction_requested"))
                  ? Effect.fail(new StoreUnavailable({ detail: "the process stopped while it recorded the request" }))
                  : ledger.append(appends)
              )
          }))
        ).pipe(Layer.provideMerge(MemoryStore.layer))
        const { ok, refused, facts, stream } = yield* Effect.flatMap(
          Layer.build(RunLedger.onStore(breakingStore, testSettings, interactionFormats)),
          runtimeOn
        )
        yield* ok("create_definition", { type: "interaction", name: "ask", source: askDocument(), diagram: "none" })
        const lost = yield* refused("run_definition", {
          type: "interaction",
          name: "ask",
          input: askInput,
          run_id: runId
        })
        expect(lost.reason).toBe("unavailable")
        expect(yield* facts(runId)).toEqual([])
        expect((yield* ok("list_runs", {})).runs).toEqual([])
        yield* Ref.set(breaking, false)
        const run = yield* ok("run_definition", { type: "interaction", name: "ask", input: askInput, run_id: runId })
        expect(run.status).toBe("started")
        const recorded = yield* facts(runId)
        expect(recorded.map((fact) => fact.type)).toEqual(["run_started", "interaction_requested", "run_deferred"])
        expect(recorded.slice(1).map((fact) => fact.metadata.causation_id)).toEqual([recorded[0].id, recorded[0].id])
        const slots = yield* stream("requests/acme/finance")
        expect(slots.map((fact) => [fact.type, fact.data, fact.metadata.causation_id])).toEqual([
          ["request_slot_taken", { run_id: runId }, recorded[0].id]
        ])
      })
  )

  it.scoped("an answer ends its run in the append that records it, with no host running", () =>
    Effect.gen(function* () {
      const store = yield* Layer.build(MemoryStore.layer)
      const core = yield* Layer.build(RunLedger.layer(testSettings, interactionFormats))
      const context = Context.merge(core, store)
      const { ok, facts, ended } = yield* runtimeOn(context)
      yield* ok("create_definition", { type: "interaction", name: "ask", source: askDocument(), diagram: "none" })
      yield* ok("run_definition", { type: "interaction", name: "ask", input: askInput, run_id: runId })
      yield* ok("answer_interaction", { run_id: runId, answer: { decision: "grant" } })
      const [answer, ending] = (yield* facts(runId)).slice(-2)
      expect([answer?.type, ending?.type]).toEqual(["request_answered", "run_succeeded"])
      expect(ending?.metadata).toMatchObject({ causation_id: answer?.id, by: expect.stringMatching(/^playbook:/) })
      expect(answer?.metadata.global_position).toBe(ending!.metadata.global_position - 1)
      expect(yield* ended(runId)).toMatchObject({ status: "succeeded", output: { decision: "grant" } })
    })
  )
})
