import { defaultSettings, Models, RuntimeConfig } from "@runledger/core"
import { HttpModelProvider } from "@runledger/model-providers"
import { Effect, Layer, TestClock, TestContext } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ScriptedModel, startScriptedModel } from "./scriptedModel.js"

const listsAsked = (model: ScriptedModel) => model.received.filter((request) => request.method === "GET").length

describe("how long a provider's list is kept", () => {
  let gateway: ScriptedModel
  beforeAll(async () => {
    gateway = await startScriptedModel("openai")
  })
  afterAll(() => gateway.close())

  it("keeps a list five minutes, answers the last list as partial when a read fails, and waits a minute to ask again", async () => {
    const settings = {
      ...defaultSettings,
      models: { providers: [{ name: "gateway", api: "openai" as const, baseUrl: gateway.baseUrl }] }
    }
    const models = Models.layer.pipe(
      Layer.provide(Layer.merge(Layer.succeed(RuntimeConfig, settings), HttpModelProvider.layer))
    )
    const ids = (list: { data: ReadonlyArray<{ id: string }> }) => list.data.map((entry) => entry.id)
    const steps = await Effect.runPromise(
      Effect.gen(function* () {
        const catalog = yield* Models
        const seen: Array<unknown> = []
        const look = Effect.gen(function* () {
          const list = yield* catalog.list()
          seen.push([ids(list), list.catalog_status, listsAsked(gateway)])
        })
        gateway.list({ body: { data: [{ id: "one" }] } })
        yield* Effect.all([look, look], { concurrency: "unbounded" })
        gateway.list({ body: { data: [{ id: "two" }] } })
        yield* TestClock.adjust("4 minutes")
        yield* look
        yield* TestClock.adjust("2 minutes")
        gateway.list({ status: 503, body: { error: { message: "down" } } })
        yield* look
        yield* TestClock.adjust("30 seconds")
        yield* look
        gateway.list({ body: { data: [{ id: "three" }] } })
        yield* TestClock.adjust("31 seconds")
        yield* look
        return seen
      }).pipe(Effect.provide(models), Effect.provide(TestContext.TestContext))
    )
    expect(steps).toEqual([
      [["gateway/one"], "complete", 1],
      [["gateway/one"], "complete", 1],
      [["gateway/one"], "complete", 1],
      [["gateway/one"], "partial", 2],
      [["gateway/one"], "partial", 2],
      [["gateway/three"], "complete", 3]
    ])
  })

  it("names no model on a runtime given no model provider", async () => {
    const list = await Effect.runPromise(
      Effect.flatMap(Models, (models) => models.list()).pipe(Effect.provide(Models.none))
    )
    expect([list.data, list.catalog_status, list.narrowed]).toEqual([[], "complete", false])
  })
})
