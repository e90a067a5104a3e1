import { type HttpHandlerOptions, listen, toWebHandler } from "@runledger/adapter-http"
import { Ledger, RunLedger, type RuntimeSettings } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, ManagedRuntime } from "effect"

/** A runtime on the memory store, its HTTP handler, and the handler served over real HTTP on 127.0.0.1. */
export const startServer = async (settings: Partial<RuntimeSettings> = {}, options: HttpHandlerOptions = {}) => {
  const runtime = ManagedRuntime.make(RunLedger.onStore(MemoryStore.layer, settings))
  const handler = toWebHandler(runtime, options)
  const server = await listen(handler, { port: 0 })
  return {
    runtime,
    handler,
    url: server.url,
    /** Sends a request to the server, over HTTP. */
    fetch: (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init),
    /** How many facts the ledger holds. */
    factCount: () =>
      runtime.runPromise(
        Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 100_000 })).pipe(
          Effect.map((facts) => facts.length)
        )
      ),
    close: async () => {
      await server.close()
      await runtime.dispose()
    }
  }
}

export type TestServer = Awaited<ReturnType<typeof startServer>>

/** JSON request options for a command. */
export const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body)
})
