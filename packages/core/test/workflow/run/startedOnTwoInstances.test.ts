import { Ledger, RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Either, Layer, Schedule, TestServices } from "effect"
import { expect, it } from "vitest"
import { addOne, askToGoOn as ask, workflowHeader, x } from "../../../../../examples/server/test/serverDocuments.js"
import { runtimeOn, testSettings } from "../../interaction/interactionFixture.js"

/** How many workflows the test starts across the two runtimes. */
const workflows = 120

const header = workflowHeader("two")

/** The shapes of the multi-instance test (examples/server), with short timers; chain and nested give n + 2. */
const shapes = {
  chain: `${header}do:
  - first:
      call: run_definition
      with: { type: computation, name: add-one, input: '${x} $data }' }
  - rest:
      wait: { milliseconds: 30 }
  - second:
      call: run_definition
      with: { type: computation, name: add-one, input: '${x} $data }' }
`,
  nested: `${header}do:
  - inner:
      call: run_definition
      with: { type: workflow, name: chain, input: '${x} $data }' }
`,
  asker: `${header}do:
  - question:
      call: run_definition
      with: { type: interaction, name: ask, input: '${x} $data }' }
`,
  listener: `${header}do:
  - pause:
      wait: { milliseconds: 30 }
  - hear:
      listen:
        to:
          one:
            with: { type: com.example.go }
`
}
const names = Object.keys(shapes) as ReadonlyArray<keyof typeof shapes>

/**
 * A store whose ledger counts the appends of a workflow run's first input that met another one (at the version
 * after `run_started`): two instances that drove the same new run.
 */
const countingRaces = (store: Layer.Layer<any, any>, raced: Array<string>) =>
  Layer.effect(
    Ledger,
    Effect.map(Ledger, (ledger) => ({
      ...ledger,
      append: (...args: Parameters<typeof ledger.append>) =>
        ledger.append(...args).pipe(
          Effect.tapError((error) =>
            Effect.sync(() => {
              if (error._tag === "VersionConflict" && error.expected === 1) raced.push(error.stream)
            })
          )
        )
    }))
  ).pipe(Layer.provideMerge(store))

/**
 * Starts workflows of every shape through two runtimes on one store, each with its hosts (the lease holder's timer
 * loop among them), several at once: every `run_definition` answers its run, started or ended, and never a conflict
 * for two instances driving the same run (issue 8); the runs that end by themselves end as one instance alone
 * ends them.
 */
const startOnTwo = (store: () => Layer.Layer<any, any>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const raced: Array<string> = []
      const a = yield* runtimeOn(yield* Layer.build(RunLedger.onStore(countingRaces(store(), raced), testSettings)))
      const b = yield* runtimeOn(yield* Layer.build(RunLedger.onStore(countingRaces(store(), raced), testSettings)))
      yield* a.ok("create_definition", { type: "computation", name: "add-one", source: addOne, diagram: "none" })
      yield* a.ok("create_definition", { type: "interaction", name: "ask", source: ask, diagram: "none" })
      for (const name of names) yield* a.ok("create_definition", { type: "workflow", name, source: shapes[name] })
      // Each runtime's sandbox warm, as a serving instance's is: a burst into cold pools on this loaded machine may
      // wait past a run's deadline for workers to start, which is not what this test is about.
      for (const instance of [a, b])
        yield* instance.ok("run_definition", { type: "computation", name: "add-one", input: { n: 0 } })
      const answers = yield* Effect.forEach(
        Array.from({ length: workflows }, (_, n) => n),
        (n) =>
          Effect.map(
            (n % 2 === 0 ? a : b).call("run_definition", {
              type: "workflow",
              name: names[n % names.length],
              input: { n }
            }),
            (answer) => ({ n, name: names[n % names.length]!, answer })
          ),
        { concurrency: 6 }
      )
      const refused = answers.flatMap(({ answer }) => (Either.isLeft(answer) ? [answer.left] : []))
      expect(refused.map((rejection) => rejection.detail)).toEqual([])
      for (const { n, name, answer } of answers) {
        const run = Either.getOrThrow(answer)
        expect(["started", "succeeded"]).toContain(run.status)
        if (name !== "chain" && name !== "nested") continue
        const ended = yield* TestServices.provideLive(
          (n % 2 === 0 ? b : a).ok("get_run", { run_id: run.run_id }).pipe(
            Effect.filterOrFail((found) => found.status !== "started"),
            Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("60 seconds")))
          )
        )
        expect([name, ended.status, ended.output]).toEqual([name, "succeeded", { n: n + 2 }])
      }
      console.log(`${workflows} workflows on two runtimes: ${raced.length} first inputs met another instance's`)
    })
  )

it("starts workflows through two runtimes on one memory store, each answered its run", async () => {
  await Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(Layer.build(MemoryStore.layer), (shared) => startOnTwo(() => Layer.succeedContext(shared)))
    )
  )
}, 180_000)

postgresSuite("workflow runs started on two instances", "alongside", (database) => {
  it("starts workflows through two runtimes on one schema, each answered its run", async () => {
    await Effect.runPromise(startOnTwo(() => PostgresStore.layer({ url: database.url, schema: database.schema })))
  }, 180_000)
})
