import { listen, toWebHandler } from "@runledger/adapter-http"
import {
  Ledger,
  type ModelProvider,
  RunLedger,
  type RuntimeConfig,
  type RuntimeSettings,
  type ToolServers
} from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { factCount, postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Layer, ManagedRuntime } from "effect"
import { describe } from "vitest"

/** The store an acceptance server runs on. */
export type AcceptanceStore =
  | { readonly kind: "memory" }
  | { readonly kind: "postgres"; readonly url: string; readonly schema: string }

/**
 * A runtime on a store, its HTTP handler served over real HTTP on 127.0.0.1, and helpers to call it. `services`
 * are built first and kept in the runtime: settings such as `InteractionSettings`, or `TestContext` so a test
 * drives the clock of the requests and the host with `runtime.runPromise(TestClock.adjust(…))`. `outside` gives the
 * ports that reach outside the runtime: the model provider and the tool servers, and the formats with the sandbox
 * they run on (a test that puts a fault into a port).
 */
export const startAcceptanceServer = async <S = never>(
  store: AcceptanceStore,
  settings: Partial<RuntimeSettings> = {},
  services: Layer.Layer<S> = Layer.empty as Layer.Layer<S>,
  outside: {
    readonly modelProvider?: Layer.Layer<ModelProvider>
    readonly toolServers?: Layer.Layer<ToolServers, never, RuntimeConfig>
    readonly formats?: Parameters<typeof RunLedger.onStore>[2]
  } = {}
) => {
  const storeLayer =
    store.kind === "memory" ? MemoryStore.layer : PostgresStore.layer({ url: store.url, schema: store.schema })
  const runtime = ManagedRuntime.make(
    Layer.provideMerge(
      RunLedger.onStore(storeLayer, settings, outside.formats, outside.modelProvider, outside.toolServers),
      services
    )
  )
  const server = await listen(toWebHandler(runtime), { port: 0 })
  return {
    runtime,
    url: server.url,
    /** Sends a request over HTTP; a body is sent as JSON. */
    send: async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
    },
    /** How many facts the ledger holds. */
    factCount: () =>
      store.kind === "postgres"
        ? factCount(store.url, store.schema)
        : runtime.runPromise(
            Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 1_000_000 })).pipe(
              Effect.map((facts) => facts.length)
            )
          ),
    close: async () => {
      await server.close()
      await runtime.dispose()
    }
  }
}

export type AcceptanceServer = Awaited<ReturnType<typeof startAcceptanceServer<never>>>

/**
 * Declares an acceptance suite once per store: on memory always, and on PostgreSQL (a schema of its own) when
 * `DATABASE_URL` is set — skipped with a line saying so otherwise, and failed in CI.
 */
export const onEveryStore = (name: string, body: (store: () => AcceptanceStore) => void): void => {
  describe(`${name} (memory store)`, () => body(() => ({ kind: "memory" })))
  postgresSuite(`${name} (acceptance)`, "alongside", (database) =>
    body(() => ({ kind: "postgres", url: database.url, schema: database.schema }))
  )
}
