import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client"
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type ApiKeyConfig, RunLedger, type RunLedgerRuntime, type RuntimeSettings } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { ManagedRuntime } from "effect"
import { type McpOptions, toWebHandler } from "../src/index.js"
import { type Served, serve } from "./serve.js"

/** A key of the org acme with every permission. */
export const fullKey: ApiKeyConfig = {
  key: "rl_full_secret",
  name: "build-bot",
  org: "acme",
  permissions: ["org:read", "org:write", "playbook:read", "playbook:write"]
}

/** A key of the org acme that may only read. */
export const readOnlyKey: ApiKeyConfig = {
  key: "rl_read_secret",
  name: "reader",
  org: "acme",
  permissions: ["org:read", "playbook:read"]
}

/** The store layer a test runtime runs on. */
export type StoreLayer = Parameters<typeof RunLedger.onStore>[0]

/** A runtime on a store (the memory store by default), composed as an embedder composes one. */
export const makeRuntime = (
  settings: Partial<RuntimeSettings> = {},
  store: StoreLayer = MemoryStore.layer
): RunLedgerRuntime => ManagedRuntime.make(RunLedger.onStore(store, settings))

/** A runtime and its MCP handler served on 127.0.0.1. */
export interface Harness extends Served {
  readonly runtime: RunLedgerRuntime
}

/** Serves the MCP handler of a fresh runtime on a store; `close` stops the server and disposes the runtime. */
export const harness = async (
  settings: Partial<RuntimeSettings> = {},
  options: McpOptions = {},
  store: StoreLayer = MemoryStore.layer
): Promise<Harness> => {
  const runtime = makeRuntime(settings, store)
  const served = await serve(toWebHandler(runtime, options))
  return {
    ...served,
    runtime,
    close: async () => {
      await served.close()
      await runtime.dispose()
    }
  }
}

/** The MCP clients the tests connect with. */
export type ClientKind = "v2 at 2026-07-28" | "v2 at 2025-06-18" | "v1"

/** What the tests use of a connected client, whichever SDK it comes from. */
export interface TestClient {
  readonly client: ClientV2 | ClientV1
  readonly listTools: () => Promise<ReadonlyArray<any>>
  readonly callTool: (name: string, args?: Record<string, unknown>) => Promise<any>
  readonly listResources: () => Promise<ReadonlyArray<any>>
  readonly readResource: (uri: string) => Promise<any>
  readonly instructions: () => string | undefined
  readonly protocolVersion: () => string | undefined
  readonly close: () => Promise<void>
}

/** Every raw answer body a client's fetch received, for tests that look at the stream itself. */
export type Recorded = Array<string>

/** A fetch that records each answer's body as text beside handing it on. */
const recordingFetch =
  (recorded: Recorded | undefined): typeof fetch =>
  async (input, init) => {
    const response = await fetch(input, init)
    if (recorded !== undefined && response.body !== null)
      void response
        .clone()
        .text()
        .then((text) => recorded.push(text))
    return response
  }

/** Connects a client of a kind to an endpoint, with an API key or, without one, as the local developer. */
export const connectClient = async (
  kind: ClientKind,
  url: string,
  options: { readonly key?: string; readonly recorded?: Recorded } = {}
): Promise<TestClient> => {
  const info = { name: "runledger-test", version: "1.0.0" }
  const requestInit = options.key === undefined ? {} : { headers: { Authorization: `Bearer ${options.key}` } }
  const transportOptions = { requestInit, fetch: recordingFetch(options.recorded) }
  const client =
    kind === "v1"
      ? new ClientV1(info)
      : new ClientV2(
          info,
          kind === "v2 at 2026-07-28"
            ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
            : { supportedProtocolVersions: ["2025-06-18"] }
        )
  const transportV1 = new TransportV1(new URL(url), transportOptions)
  if (client instanceof ClientV1) await client.connect(transportV1)
  else await client.connect(new TransportV2(new URL(url), transportOptions))
  return {
    client,
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args = {}) => client.callTool({ name, arguments: args }),
    listResources: async () => (await client.listResources()).resources,
    readResource: (uri) => client.readResource({ uri }),
    instructions: () => client.getInstructions(),
    protocolVersion: () =>
      client instanceof ClientV1 ? transportV1.protocolVersion : client.getNegotiatedProtocolVersion(),
    close: () => client.close()
  }
}

/** The problem document of a failed tool result. */
export const problemOf = (result: any): Record<string, any> => JSON.parse(result.content[1].text)
