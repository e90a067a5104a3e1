import { randomBytes } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import { toWebHandler } from "@runledger/adapter-http"
import { type ContentStore, Formats, interactionFormat, type Ledger, RunLedger, type Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { clientLayer, type PostgresStore } from "../ledger/postgresStore.js"
import { drive } from "../runs/drive.js"
import { FactWatch } from "./factWatch.js"

/** How a row is laid out: one runtime on memory or Postgres, or two instances on one Postgres database. */
export type RowLayout =
  | { readonly kind: "memory" }
  | { readonly kind: "postgres"; readonly store: Extract<PostgresStore, { available: true }>; readonly url: string }
  | {
      readonly kind: "two instances"
      readonly store: Extract<PostgresStore, { available: true }>
      readonly url: string
    }

/** One repetition's figures: pick-up latencies, and what did not go as asked. */
export interface RowSample {
  /** Milliseconds from `request_answered` committed to `run_succeeded` committed by the host, one per request. */
  readonly latencies: ReadonlyArray<number>
  /** Milliseconds from the answer's 200 reaching the caller to `run_succeeded` committed, 0 when it came first. */
  readonly after200: ReadonlyArray<number>
  /** Runs whose success was committed before their answer's 200 reached the caller. */
  readonly endedBefore200: number
  /** Starts answered other than 200, by status. */
  readonly refusedStarts: string
  /** Starts per second while the requests were opened, `concurrency` in flight in one playbook. */
  readonly startsPerSecond: number
}

/** A row ready to measure: `measure(n)` opens n waiting requests, then answers them one by one. */
export interface AnswersRow {
  readonly measure: (requests: number, concurrency: number) => Promise<RowSample>
  readonly close: () => Promise<void>
}

const playbook = "/v1/orgs/local/playbooks/bench"
const local = { remoteAddress: "127.0.0.1" }
const formats = Layer.succeed(Formats, new Map([["interaction", interactionFormat]]))

/** The request each run asks: held for an agent for a day, answered with a decision. */
const askDocument = `---
description: Ask the owner about a refund
to: '{{ input.owner }}'
expires: P1D
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Refund {{ input.cents }} cents for order {{ input.order }}?
`

/** A client of a runtime's HTTP handler, in-process (no socket): the status and the JSON body. */
const clientOf = (runtime: ManagedRuntime.ManagedRuntime<any, any>) => {
  const handler = toWebHandler(runtime)
  return async (method: string, path: string, body: unknown) => {
    const response = await handler(
      new Request(`http://bench${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      }),
      local
    )
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }
}

/** Resolves with the promise's value, or rejects after `millis`. */
const within = <A>(promise: Promise<A>, millis: number, what: string) =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not happen within ${millis} ms`)), millis)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })

/**
 * Opens a row: the runtime that runs the host (and whose ledger the watch sees), and for two instances a second
 * runtime on the same database without a host, which takes the answers; the ask function is saved.
 */
export const openAnswersRow = async (layout: RowLayout): Promise<AnswersRow> => {
  const watch = new FactWatch(["request_answered", "run_succeeded"])
  const schema = `bench_${randomBytes(6).toString("hex")}`
  const storeOf = (): Layer.Layer<Ledger | Views | ContentStore, unknown> =>
    layout.kind === "memory" ? MemoryStore.layer : layout.store.layer({ url: layout.url, schema })
  const hosting = ManagedRuntime.make(RunLedger.onStore(watch.watching(storeOf()), {}, formats))
  const answering =
    layout.kind === "two instances"
      ? ManagedRuntime.make(Layer.merge(RunLedger.layer({}, formats), watch.watching(storeOf())))
      : hosting
  const send = clientOf(hosting)
  const answer = clientOf(answering)
  const ok = async (method: string, path: string, body: unknown) => {
    const response = await send(method, path, body)
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
    return response.body
  }
  await ok("POST", "/v1/orgs/local/playbooks", { playbook: "bench", name: "bench" })
  await ok("POST", `${playbook}/definitions/interaction`, {
    name: "ask",
    source: askDocument,
    diagram: "none",
    overview: "Asks."
  })
  await answering.runPromise(Effect.void)
  let order = 0
  return {
    measure: async (requests, concurrency) => {
      const runIds: Array<string> = []
      const refused = new Map<number, number>()
      const { seconds } = await drive(requests, concurrency, async () => {
        const input = { owner: "dana", cents: 12_345, order: `A-${order++}` }
        const started = await send("POST", `${playbook}/definitions/interaction/ask/run`, { input })
        if (started.status === 200) runIds.push(started.body.run_id)
        else refused.set(started.status, (refused.get(started.status) ?? 0) + 1)
      })
      const latencies: Array<number> = []
      const after200: Array<number> = []
      let endedBefore200 = 0
      for (const runId of runIds) {
        const committed = watch.until("request_answered", runId)
        const ended = watch.until("run_succeeded", runId)
        const answered = await answer("POST", `${playbook}/runs/${runId}/answer`, { answer: { decision: "grant" } })
        const answeredAt = performance.now()
        if (answered.status !== 200)
          throw new Error(`answer ${runId}: ${answered.status} ${JSON.stringify(answered.body)}`)
        const endedAt = await within(ended, 60_000, `the end of the run ${runId}`)
        latencies.push(endedAt - (await committed))
        if (endedAt < answeredAt) endedBefore200++
        after200.push(Math.max(0, endedAt - answeredAt))
      }
      return {
        latencies,
        after200,
        endedBefore200,
        refusedStarts: [...refused].map(([status, count]) => `${count}×${status}`).join(" "),
        startsPerSecond: requests / seconds
      }
    },
    close: async () => {
      if (answering !== hosting) await answering.dispose()
      await hosting.dispose()
      if (layout.kind !== "memory")
        await Effect.runPromise(
          Effect.scoped(
            Effect.flatMap(Layer.build(clientLayer(layout.url)), (context) => {
              const sql = Context.get(context, PgClient.PgClient)
              return Effect.ignore(sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`)
            })
          )
        )
    }
  }
}
