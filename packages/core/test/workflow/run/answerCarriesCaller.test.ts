import { describe, expect, it } from "@effect/vitest"
import { type Fact, RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, Layer, TestClock } from "effect"
import { askDocument, askInput, runtimeOn, testSettings } from "../../interaction/interactionFixture.js"
import { asking, askingOrGivingUp, refusingCarriedAppends } from "./carriedAnswerFixture.js"

/** A runtime on a store with `ask` and the workflow `flow` saved, and a run of `flow` waiting on its request. */
const waiting = (workflow: string, store: Layer.Layer<any> = MemoryStore.layer, expires = "PT1H") =>
  Effect.gen(function* () {
    const runtime = yield* runtimeOn(yield* Layer.build(RunLedger.onStore(store, testSettings)))
    yield* runtime.ok("create_definition", {
      type: "interaction",
      name: "ask",
      source: askDocument().replace("PT1H", expires),
      diagram: "none"
    })
    yield* runtime.ok("create_definition", { type: "workflow", name: "flow", source: workflow })
    const started = yield* runtime.ok("run_definition", { type: "workflow", name: "flow", input: askInput })
    expect(started.status).toBe("started")
    const open = yield* runtime.ok("list_interactions", {})
    expect(open.interactions).toHaveLength(1)
    const [request] = open.interactions
    /** The workflow's input that took the call's answer. */
    const takenAnswer = Effect.map(runtime.facts(started.run_id), (facts) =>
      facts.find(
        (fact: Fact) => fact.type === "workflow_input_applied" && (fact.data as any).input.kind === "call_answered"
      )
    )
    const endingOfRequest = Effect.map(
      runtime.facts(request.run_id),
      (facts) => facts.find((fact: Fact) => fact.type === "run_succeeded" || fact.type === "run_rejected")!
    )
    return {
      ...runtime,
      workflow: started.run_id as string,
      request: request.run_id as string,
      takenAnswer,
      endingOfRequest
    }
  })

describe("an answer carries its workflow caller on (ADR 0405)", () => {
  it.scoped(
    "records the caller's next step in the answer's own append: the workflow has ended when the answer returns",
    () =>
      Effect.gen(function* () {
        const { ok, workflow, request, takenAnswer, endingOfRequest, facts } = yield* waiting(asking)
        yield* ok("answer_interaction", { run_id: request, answer: { decision: "grant" } })
        expect(yield* ok("get_run", { run_id: workflow })).toMatchObject({
          status: "succeeded",
          output: { decided: "grant" }
        })
        const ending = yield* endingOfRequest
        const taken = (yield* takenAnswer)!
        expect(taken.metadata.causation_id).toBe(ending.id)
        expect(taken.metadata.position).toBeGreaterThan(0)
        expect((yield* facts(workflow)).filter((fact: Fact) => fact.type === "workflow_input_applied")).toHaveLength(2)
      })
  )

  it.scoped("appends the answer alone when the caller moved meanwhile; the caller's host then takes the answer", () =>
    Effect.gen(function* () {
      const refused: Array<string> = []
      const { ok, ended, workflow, request, takenAnswer, endingOfRequest } = yield* waiting(
        asking,
        refusingCarriedAppends(MemoryStore.layer, refused)
      )
      yield* ok("answer_interaction", { run_id: request, answer: { decision: "deny" } })
      expect(refused).toEqual([`playbook/acme/finance/runs/${workflow}`])
      expect(yield* ok("get_run", { run_id: request })).toMatchObject({ status: "succeeded" })
      expect(yield* ended(workflow)).toMatchObject({ status: "succeeded", output: { decided: "deny" } })
      expect((yield* takenAnswer)!.metadata.causation_id).not.toBe((yield* endingOfRequest).id)
    })
  )

  it.scoped(
    "an expired request raises unanswered in the caller within the expiry's append; the workflow catches it",
    () =>
      Effect.gen(function* () {
        const { ended, workflow, takenAnswer, endingOfRequest } = yield* waiting(
          askingOrGivingUp,
          MemoryStore.layer,
          "PT1M"
        )
        // Every host's loop wakes on the TestClock as it moves: a minute of it is quicker to pass than an hour.
        yield* TestClock.adjust("1 minute")
        expect(yield* ended(workflow)).toMatchObject({ status: "succeeded", output: { decided: "none" } })
        const ending = yield* endingOfRequest
        expect(ending.data).toMatchObject({ reason: "unanswered", kind: "expired" })
        expect((yield* takenAnswer)!.metadata.causation_id).toBe(ending.id)
      })
  )
})
