import { type Fact, Ledger, RunLedger } from "@runledger/core"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Layer, Schedule, TestServices } from "effect"
import { expect, it } from "vitest"
import { asking, refusingCarriedAppends } from "../workflow/run/carriedAnswerFixture.js"
import { askDocument, askInput, interactionFormats, runtimeOn, testSettings } from "./interactionFixture.js"

/** Polls a run on an instance, every millisecond, until it ended; the run and how long after `from` it was seen. */
const seenEnded = (instance: Effect.Effect.Success<ReturnType<typeof runtimeOn>>, runId: string, from: number) =>
  Effect.gen(function* () {
    for (;;) {
      const run = yield* instance.ok("get_run", { run_id: runId })
      if (run.status !== "started") return { run, millis: performance.now() - from }
      if (performance.now() - from > 2_000)
        return yield* Effect.die(new Error(`the run ${runId} did not end within 2 s`))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)))
    }
  })

postgresSuite("interaction requests across two instances", "alongside", (database) => {
  const store = () => PostgresStore.layer({ url: database.url, schema: database.schema })

  it("an answer posted to B, which runs no host, is taken by A's host through LISTEN/NOTIFY", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const a = yield* runtimeOn(yield* Layer.build(RunLedger.onStore(store(), testSettings, interactionFormats)))
          const bContext = yield* Layer.build(Layer.merge(RunLedger.layer(testSettings, interactionFormats), store()))
          const b = yield* runtimeOn(bContext)
          yield* a.ok("create_definition", { type: "interaction", name: "ask", source: askDocument(), diagram: "none" })
          const delays: Array<number> = []
          const recorded: Array<number> = []
          for (let round = 0; round < 5; round++) {
            const started = yield* a.ok("run_definition", { type: "interaction", name: "ask", input: askInput })
            yield* b.ok("answer_interaction", { run_id: started.run_id, answer: { decision: "grant" } })
            const answeredAt = performance.now()
            const { run, millis } = yield* seenEnded(a, started.run_id, answeredAt)
            expect(run).toMatchObject({ status: "succeeded", output: { decision: "grant" } })
            delays.push(millis)
            const facts = yield* a.facts(started.run_id)
            const at = (type: string) => Date.parse(facts.find((fact) => fact.type === type)!.metadata.at)
            recorded.push(at("run_succeeded") - at("request_answered"))
          }
          console.log(
            `answer on B → succeeded seen on A (host on A only): ${delays.map((ms) => ms.toFixed(1)).join(", ")} ms; ` +
              `request_answered → run_succeeded as recorded: ${recorded.join(", ")} ms`
          )
        })
      )
    )
  }, 30_000)

  it("with a host on both instances, exactly one ending lands", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const a = yield* runtimeOn(yield* Layer.build(RunLedger.onStore(store(), testSettings, interactionFormats)))
          const b = yield* runtimeOn(yield* Layer.build(RunLedger.onStore(store(), testSettings, interactionFormats)))
          yield* a.call("create_definition", {
            type: "interaction",
            name: "ask",
            source: askDocument(),
            diagram: "none"
          })
          const delays: Array<number> = []
          for (let round = 0; round < 5; round++) {
            const started = yield* a.ok("run_definition", { type: "interaction", name: "ask", input: askInput })
            yield* b.ok("answer_interaction", { run_id: started.run_id, answer: { decision: "deny" } })
            const { run, millis } = yield* seenEnded(a, started.run_id, performance.now())
            expect(run.output).toEqual({ decision: "deny" })
            delays.push(millis)
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
            const endings = (yield* a.facts(started.run_id)).filter(
              (fact) => fact.type.startsWith("run_") && fact.type !== "run_started" && fact.type !== "run_deferred"
            )
            expect(endings.map((fact) => fact.type)).toEqual(["run_succeeded"])
          }
          console.log(
            `answer on B → succeeded seen on A (hosts on both): ${delays.map((ms) => ms.toFixed(1)).join(", ")} ms`
          )
        })
      )
    )
  }, 30_000)

  /**
   * Starts the workflow `flow` on A (a runtime with hosts), which waits on the request of its first step, and
   * answers that request on B (hosts off; B's ledger as `bStore` makes it): the workflow's run, its request's run,
   * and the ledger transaction (PostgreSQL's, from the global position) of each fact of both.
   */
  const answeredOnB = (bStore: Layer.Layer<any, any>) =>
    Effect.gen(function* () {
      const a = yield* runtimeOn(yield* Layer.build(RunLedger.onStore(store(), testSettings)))
      const b = yield* runtimeOn(yield* Layer.build(Layer.merge(RunLedger.layer(testSettings), bStore)))
      // Saved by the first test of the suite's schema; a conflict says a later one finds them saved.
      yield* a.call("create_definition", { type: "interaction", name: "ask", source: askDocument(), diagram: "none" })
      yield* a.call("create_definition", { type: "workflow", name: "flow", source: asking })
      const started = yield* a.ok("run_definition", { type: "workflow", name: "flow", input: askInput })
      const [request] = (yield* a.ok("list_interactions", {})).interactions
      yield* b.ok("answer_interaction", { run_id: request.run_id, answer: { decision: "grant" } })
      const run = yield* a.ended(started.run_id)
      const factOf = (facts: ReadonlyArray<Fact>, found: (fact: Fact) => boolean) => facts.find(found)!
      const answered = factOf(yield* a.facts(request.run_id), (fact) => fact.type === "request_answered")
      const taken = factOf(
        yield* a.facts(started.run_id),
        (fact) => fact.type === "workflow_input_applied" && (fact.data as any).input.kind === "call_answered"
      )
      // The global order holds a fact once every transaction older than its own has ended (the horizon), which
      // other suites' transactions on the same database can hold back: read it until it holds both facts.
      const transactionOf = yield* a
        .run(
          Effect.flatMap(Ledger, (ledger) =>
            ledger.readAll({
              direction: "forward",
              limit: 1000,
              filter: { streamPrefix: "playbook/acme/finance/runs/" }
            })
          )
        )
        .pipe(
          Effect.map((global) => new Map(global.map((placed) => [placed.fact.id, placed.position.split(":")[0]]))),
          Effect.filterOrFail((placed) => placed.has(answered.id) && placed.has(taken.id)),
          Effect.retry(Schedule.spaced("10 millis").pipe(Schedule.upTo("5 seconds"))),
          TestServices.provideLive
        )
      return { run, sameTransaction: transactionOf.get(answered.id) === transactionOf.get(taken.id) }
    })

  it("a workflow waiting on A takes an answer posted to B in the answer's own transaction (ADR 0405)", async () => {
    const { run, sameTransaction } = await Effect.runPromise(Effect.scoped(answeredOnB(store())))
    expect(run).toMatchObject({ status: "succeeded", output: { decided: "grant" } })
    expect(sameTransaction).toBe(true)
  }, 30_000)

  it("when B cannot carry the workflow on with the answer, A's host takes the answer through LISTEN/NOTIFY", async () => {
    const refused: Array<string> = []
    const { run, sameTransaction } = await Effect.runPromise(
      Effect.scoped(answeredOnB(refusingCarriedAppends(store(), refused)))
    )
    expect(refused).toHaveLength(1)
    expect(run).toMatchObject({ status: "succeeded", output: { decided: "grant" } })
    expect(sameTransaction).toBe(false)
  }, 30_000)
})
