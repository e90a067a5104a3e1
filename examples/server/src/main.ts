#!/usr/bin/env node
import { listen, toWebHandler } from "@runledger/adapter-http"
import { mcpMount } from "@runledger/adapter-mcp"
import { RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { ManagedRuntime } from "effect"
import { readServerSettings } from "./serverSettings.js"

/** The runnable RunLedger server: local mode on 127.0.0.1:4100 with the memory store unless told otherwise. */
const main = async () => {
  const settings = readServerSettings(process.env)
  const store = settings.databaseUrl ? PostgresStore.layer({ url: settings.databaseUrl }) : MemoryStore.layer
  const runtime = ManagedRuntime.make(RunLedger.onStore(store, settings.runtime))
  await runtime.runtime()
  const shutdown = new AbortController()
  const handler = toWebHandler(runtime, { mounts: [mcpMount(runtime, { shutdown: shutdown.signal })] })
  const server = await listen(handler, { port: settings.port, host: settings.host })
  const store_name = settings.databaseUrl ? "PostgreSQL" : "memory"
  console.log(
    `RunLedger listens on ${server.url} (${settings.runtime.localMode ? "local mode" : "API keys"}, ${store_name} store).`
  )
  const stop = async () => {
    shutdown.abort()
    await server.close()
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
