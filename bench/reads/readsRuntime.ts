import { randomBytes } from "node:crypto"
import { toWebHandler } from "@runledger/adapter-http"
import { type ContentStore, type Ledger, RunLedger, type Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, type Layer, ManagedRuntime } from "effect"
import type { PostgresStore } from "../ledger/postgresStore.js"
import { trivialDocument } from "../runs/program.js"
import { dropSchema } from "../shared/dropSchema.js"
import { onDatabase } from "../shared/onDatabase.js"
import type { Playbook } from "./dataset.js"

/** Where the benchmark's runtime keeps its ledger. */
export type ReadsStore =
  | { readonly kind: "memory" }
  | { readonly kind: "postgres"; readonly store: Extract<PostgresStore, { available: true }>; readonly url: string }

/** An answer of the handler: its status, its JSON body, and the milliseconds from the request to the whole body. */
export interface Answer {
  readonly status: number
  readonly body: any
  readonly millis: number
}

/** A runtime on a store, served by its HTTP handler in-process, with a key per org of the benchmark. */
export interface ReadsRuntime {
  readonly runtime: ManagedRuntime.ManagedRuntime<Ledger | Views, unknown>
  /** Sends a request as the org's key to a path under `/v1/orgs/<org>`. */
  readonly send: (org: string, method: string, path: string, body?: unknown) => Promise<Answer>
  /**
   * Brings PostgreSQL's statistics of the store's tables up to date (`ANALYZE`), as autovacuum does on a server
   * that runs it; nothing on memory. Without statistics the planner takes a partition of a view for a few rows and
   * sorts all of it for a page (ADR 0180).
   */
  readonly analyze: () => Promise<void>
  readonly close: () => Promise<void>
}

const remote = { remoteAddress: "127.0.0.1" }

/**
 * Opens a runtime on `store` whose key `<org>` acts in that org, then creates each playbook, saves in it the
 * computation function `twice` (the changes row runs it) and runs it once, so a sandbox worker is up.
 */
export const openReadsRuntime = async (
  store: ReadsStore,
  playbooks: ReadonlyArray<Playbook>
): Promise<ReadsRuntime> => {
  const schema = `bench_${randomBytes(6).toString("hex")}`
  const storeLayer: Layer.Layer<Ledger | Views | ContentStore, unknown> =
    store.kind === "memory" ? MemoryStore.layer : store.store.layer({ url: store.url, schema })
  const apiKeys = playbooks.map(({ org }) => ({
    key: org,
    name: "bench",
    org,
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"] as Array<
      "org:read" | "org:write" | "playbook:read" | "playbook:write"
    >
  }))
  const runtime = ManagedRuntime.make(RunLedger.onStore(storeLayer, { localMode: false, apiKeys }))
  const handler = toWebHandler(runtime)
  const send = async (org: string, method: string, path: string, body?: unknown): Promise<Answer> => {
    const start = performance.now()
    const response = await handler(
      new Request(`http://bench/v1/orgs/${org}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${org}`,
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }),
      remote
    )
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : JSON.parse(text), millis: performance.now() - start }
  }
  const expectOk = (answer: Answer, what: string) => {
    if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`)
  }
  /** Sends a request again while it answers 503, as a loaded machine may start the checker or a sandbox worker late. */
  const untilServed = async (org: string, path: string, body: unknown, what: string) => {
    for (let attempt = 1; ; attempt++) {
      const answer = await send(org, "POST", path, body)
      if (answer.status !== 503 || attempt === 5) return expectOk(answer, what)
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
  }
  for (const { org, id } of playbooks) {
    expectOk(await send(org, "POST", "/playbooks", { playbook: id, name: id }), `create ${org}/${id}`)
    const twice = { name: "twice", source: trivialDocument, diagram: "none" }
    await untilServed(org, `/playbooks/${id}/definitions/computation`, twice, `save twice in ${org}/${id}`)
    await untilServed(org, `/playbooks/${id}/definitions/computation/twice/run`, { input: { n: 0 } }, "run twice")
  }
  return {
    runtime,
    send,
    analyze: async () => {
      if (store.kind === "postgres")
        await onDatabase(store.url, (sql) =>
          Effect.forEach(["runledger_facts", "runledger_views"], (table) => sql`ANALYZE ${sql(`${schema}.${table}`)}`)
        )
    },
    close: async () => {
      await runtime.dispose()
      if (store.kind === "postgres") await dropSchema(store.url, schema)
    }
  }
}
