#!/usr/bin/env node
import { listen, toWebHandler } from "@runledger/adapter-http"
import { mcpMount } from "@runledger/adapter-mcp"
import { RunLedger } from "@runledger/core"
import { HttpModelProvider } from "@runledger/model-providers"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { ToolServersLive } from "@runledger/tool-servers"
import { ManagedRuntime } from "effect"
import { requestsInFlight } from "./requestsInFlight.js"
import { readServerSettings } from "./serverSettings.js"

/** How long a stopping server waits for the requests it is answering before it closes their connections. */
const stopGraceMillis = 10_000

/** How long the server gives the connections that are writing their last answer before it closes them. */
const closeGraceMillis = 1_000

/** The runnable RunLedger server: local mode on 127.0.0.1:4100 with the memory store unless told otherwise. */
const main = async () => {
  const settings = readServerSettings(process.env)
  const store = settings.databaseUrl
    ? PostgresStore.layer({
        url: settings.databaseUrl,
        ...(settings.databaseSchema === undefined ? {} : { schema: settings.databaseSchema })
      })
    : MemoryStore.layer
  const runtime = ManagedRuntime.make(
    RunLedger.onStore(store, settings.runtime, undefined, HttpModelProvider.layer, ToolServersLive.layer())
  )
  await runtime.runtime()
  const shutdown = new AbortController()
  const inFlight = requestsInFlight(
    toWebHandler(runtime, { mounts: [mcpMount(runtime, { shutdown: shutdown.signal })], shutdown: shutdown.signal })
  )
  const server = await listen(inFlight.handler, { port: settings.port, host: settings.host })
  const store_name = settings.databaseUrl ? "PostgreSQL" : "memory"
  console.log(
    `RunLedger listens on ${server.url} (${settings.runtime.localMode ? "local mode" : "API keys"}, ${store_name} store).`
  )
  // Stopping: new requests answer `unavailable`, those in flight are answered (for at most stopGraceMillis), then
  // the connections close and the runtime's hosts and pool stop.
  const stop = async () => {
    shutdown.abort()
    await inFlight.settled(stopGraceMillis)
    await server.close(closeGraceMillis)
    await runtime.dispose()
    process.exit(0)
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
