import { Context } from "effect"
import type { ModelSettings } from "../models/ModelSettings.js"
import type { ToolServerEntry } from "../tools/ToolServerEntry.js"

/** An API key the runtime accepts: its secret, its org, its permissions and optionally its playbooks. */
export interface ApiKeyConfig {
  readonly key: string
  /** The key's name, shown as who acted (`This connection acts as the key build-bot`). */
  readonly name: string
  readonly org: string
  readonly permissions: ReadonlyArray<"org:read" | "org:write" | "playbook:read" | "playbook:write">
  /** The playbooks the key may act on; absent for every playbook of its org. */
  readonly playbooks?: ReadonlyArray<string>
}

/** How a runtime is set up: its address, local mode, its keys, and the Studio it links to. */
export interface RuntimeSettings {
  /** The runtime's public address (PUBLIC_URL); absent = the origin each request arrived at. */
  readonly publicUrl?: string
  /** Local mode: no credential, org `local`, caller `local`, loopback requests only. */
  readonly localMode: boolean
  /** The name the local developer acts under in local mode (the account the server runs as). */
  readonly localName?: string
  readonly apiKeys: ReadonlyArray<ApiKeyConfig>
  /** Studio's origin (STUDIO_ORIGIN); links to Studio are given only when it is set. */
  readonly studioOrigin?: string
  /** The runtime's name as it introduces itself over MCP and in problem words. */
  readonly serverName: string
  readonly serverVersion: string
  /** The longest a workflow run may go on, in ms (workflow-format.md §15): 2 hours to 365 days, default 30 days. */
  readonly maxRunMilliseconds?: number
  /** The most open calls among all workflow runs under one root run (workflow-format.md §7.3): 1–9,999, default 1,000. */
  readonly maxOpenCalls?: number
  /** The tool servers the operator set up (`tool_servers`); none when absent. */
  readonly toolServers?: ReadonlyArray<ToolServerEntry>
  /** The model providers, aliases and allow list reasoning functions run on; no provider when absent. */
  readonly models?: ModelSettings
}

/** The runtime's settings as a service. */
export class RuntimeConfig extends Context.Tag("@runledger/core/RuntimeConfig")<RuntimeConfig, RuntimeSettings>() {}

/** The settings of a runtime nobody configured: local mode, no keys, no Studio. */
export const defaultSettings: RuntimeSettings = {
  localMode: true,
  apiKeys: [],
  serverName: "RunLedger",
  serverVersion: "0.1.0"
}
