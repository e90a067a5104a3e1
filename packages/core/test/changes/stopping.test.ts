import { Authenticator, dispatch, findOperation, Ledger, RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Deferred, Effect, Layer, ManagedRuntime, Stream } from "effect"
import { expect, it } from "vitest"
import { echoFormats } from "../echoFormat.js"
import { testKeys } from "../runtimeFixture.js"

/**
 * The memory store, its wake-ups ending when its scope closes as a store's should (the PostgreSQL store's do):
 * the signal a held request answers to when the runtime stops.
 */
const storeWhoseWakeupsEnd = Layer.scopedContext(
  Effect.gen(function* () {
    const context = yield* Layer.build(MemoryStore.layer)
    const ledger = Context.get(context, Ledger)
    const stopped = yield* Deferred.make<void>()
    yield* Effect.addFinalizer(() => Deferred.succeed(stopped, undefined))
    return Context.add(context, Ledger, {
      ...ledger,
      wakeups: ledger.wakeups.pipe(Stream.interruptWhen(Deferred.await(stopped)))
    })
  })
)

it("answers every held request at once, with the cursor it was given, when the runtime stops", async () => {
  const runtime = ManagedRuntime.make(
    Layer.merge(RunLedger.layer({ localMode: false, apiKeys: testKeys }, echoFormats), storeWhoseWakeupsEnd)
  )
  const call = (operation: string, input: unknown, playbook?: string) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const caller = yield* Effect.flatMap(Authenticator, (auth) =>
          auth.authenticate({ bearer: "full", loopback: true })
        )
        const answer = yield* dispatch({
          operation: findOperation(operation)!,
          caller,
          input,
          origin: "http://127.0.0.1:4100",
          ...(playbook === undefined ? {} : { playbook })
        })
        return answer.output as any
      })
    )
  await call("create_playbook", { playbook: "finance", name: "Finance" })
  const playbookNow = await call("list_playbook_changes", {}, "finance")
  const orgNow = await call("list_org_changes", {})
  const held = [
    call("list_playbook_changes", { since: playbookNow.cursor }, "finance"),
    call("list_org_changes", { since: orgNow.cursor, wait: 20 })
  ]
  await new Promise((resolve) => setTimeout(resolve, 200))
  const stopping = performance.now()
  await runtime.dispose()
  expect(await Promise.all(held)).toEqual([
    { cursor: playbookNow.cursor, changes: [], more: false },
    { cursor: orgNow.cursor, changes: [], more: false }
  ])
  expect(performance.now() - stopping).toBeLessThan(1000)
})
