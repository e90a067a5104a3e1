import * as PgClient from "@effect/sql-pg/PgClient"
import { RunLedger } from "@runledger/core"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Deferred, Effect, ManagedRuntime, Redacted } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { listen, toWebHandler } from "../src/index.js"

// Holds a transaction open on the server on purpose, which holds back every reader of the global order: alone.
postgresSuite("a held changes request and a transaction older than the change", "alone", (database) => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let server: Awaited<ReturnType<typeof listen>>
  beforeAll(async () => {
    runtime = ManagedRuntime.make(
      RunLedger.onStore(PostgresStore.layer({ url: database.url, schema: database.schema }), { localMode: true })
    )
    server = await listen(toWebHandler(runtime), { port: 0 })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await runtime?.dispose()
  })

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v1/orgs/local${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() }
  }

  it("answers once the older transaction ends, though no other wake-up comes (ADR 0197)", async () => {
    expect((await send("POST", "/playbooks", { playbook: "finance", name: "Finance" })).status).toBe(201)
    const since = (await send("GET", "/playbooks/finance/changes")).body.cursor
    const held = send("GET", `/playbooks/finance/changes?since=${since}&wait=20`)
    // A transaction of another client, with an id, begun before the comment's: the comment's fact stays above the
    // global order's horizon until it ends, so the wake-up of the comment's append finds nothing to read yet.
    const other = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(database.url), maxConnections: 1 }))
    const begun = Effect.runSync(Deferred.make<void>())
    const release = Effect.runSync(Deferred.make<void>())
    const older = other.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const connection = yield* (yield* PgClient.PgClient).reserve
          yield* connection.executeRaw("BEGIN", [])
          yield* connection.executeRaw("SELECT pg_current_xact_id()", [])
          yield* Deferred.succeed(begun, undefined)
          yield* Deferred.await(release)
          yield* connection.executeRaw("COMMIT", [])
        })
      )
    )
    await Effect.runPromise(Deferred.await(begun))
    await new Promise((resolve) => setTimeout(resolve, 200))
    const comment = await send("POST", "/playbooks/finance/comments", { address: "playbooks/finance", text: "Hi" })
    expect(comment.status).toBe(201)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const ended = performance.now()
    await Effect.runPromise(Deferred.succeed(release, undefined))
    await older
    await other.dispose()
    const answer = await held
    const after = performance.now() - ended
    console.log(`held changes answered ${after.toFixed(1)} ms after the older transaction ended`)
    expect(answer.body.changes).toEqual([{ kind: "comment", comment_id: comment.body.id }])
    // Generous: without the re-looks the request is answered when its 20 s pass.
    expect(after).toBeLessThan(5_000)
  }, 40_000)
})
