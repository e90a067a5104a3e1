import { Ledger, RunLedger, Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, Layer, Schedule, TestServices } from "effect"
import { type RuntimeContext, runtimeOn, testSettings } from "../../interaction/interactionFixture.js"

/** `${` as the documents write it; kept out of string literals so the linter reads them as plain text. */
export const x = "$" + "{"

/** A workflow document named `flow`: the header, the `schedule` lines, then the task lines. */
export const triggered = (schedule: string, tasks = `  - done:\n      set:\n        got: ${x} $input }\n`): string =>
  `document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\nschedule:\n${schedule}do:\n${tasks}`

/** Runs an effect on the real clock until it gives a value that holds, for at most 10 s: the hosts work in fibers. */
export const eventually = <A>(effect: Effect.Effect<A, unknown>, holds: (value: A) => boolean) =>
  TestServices.provideLive(
    effect.pipe(
      Effect.filterOrFail(holds),
      Effect.retry(Schedule.spaced("10 millis").pipe(Schedule.upTo("10 seconds")))
    )
  )

/** Lets the hosts' fibers take what is in hand on the real clock (the TestClock does not move). */
export const settle = TestServices.provideLive(Effect.sleep("60 millis"))

/**
 * A whole runtime (every format, the workflow and trigger hosts) on a store, built in the calling fiber's scope so
 * the hosts sleep on the `TestClock`, with the playbook finance and helpers to read what the triggers did.
 */
export const startTriggerRuntime = (store: Parameters<typeof RunLedger.onStore>[0] = MemoryStore.layer) =>
  Effect.flatMap(Layer.build(RunLedger.onStore(store, testSettings)), (context) => helpersOn(context))

/** The helpers over a built runtime. */
export const helpersOn = (context: RuntimeContext) =>
  Effect.gen(function* () {
    const api = yield* runtimeOn(context)
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
    /** The runs of a workflow, oldest first, with their `run_started` fact. */
    const runsOf = (name: string) =>
      run(
        Effect.gen(function* () {
          const views = yield* Views
          const docs = yield* views.list("runs", "acme/finance", { direction: "ascending", limit: 1000 })
          const ledger = yield* Ledger
          const found = []
          for (const doc of docs) {
            const data = doc.data as { name: string; run_id: string; status: string }
            if (data.name !== name) continue
            const [started] = yield* ledger.readStream(`playbook/acme/finance/runs/${data.run_id}`, { limit: 1 })
            found.push({ ...data, started: started! })
          }
          return found.toSorted((left, right) => (left.started.metadata.at < right.started.metadata.at ? -1 : 1))
        })
      )
    /** The facts of one type in the playbook's global order. */
    const factsOfType = (type: string) =>
      run(
        Effect.map(
          Effect.flatMap(Ledger, (ledger) =>
            ledger.readAll({ direction: "forward", limit: 10_000, filter: { types: [type] } })
          ),
          (facts) => facts.map((positioned) => positioned.fact)
        )
      )
    const save = (name: string, source: string) => api.ok("create_definition", { type: "workflow", name, source })
    return { ...api, run, runsOf, factsOfType, save }
  })
