import { readFileSync } from "node:fs"
import { type ApiKeyConfig, isLoopback, type RuntimeSettings } from "@runledger/core"
import { parse } from "yaml"
import { type ModelsFile, readModelSettings } from "./modelSettings.js"
import { readToolServers, type ToolServerFileEntry } from "./toolServerSettings.js"

/** How the example server is set up: where it listens, which store it uses, and the runtime's settings. */
export interface ServerSettings {
  readonly host: string
  readonly port: number
  /** PostgreSQL's address; absent = the memory store. */
  readonly databaseUrl: string | undefined
  /** The PostgreSQL schema the store keeps its tables in (DATABASE_SCHEMA); absent = the store's default. */
  readonly databaseSchema?: string
  readonly runtime: Partial<RuntimeSettings>
}

/** The settings file's shape (RUNLEDGER_SETTINGS, YAML): keys and switches that do not fit an environment variable. */
interface SettingsFile {
  readonly local_mode?: boolean
  readonly api_keys?: ReadonlyArray<{
    readonly key: string
    readonly name: string
    readonly org: string
    readonly permissions: ApiKeyConfig["permissions"]
    readonly playbooks?: ReadonlyArray<string>
  }>
  /** The model providers, aliases and allow list of reasoning functions. */
  readonly models?: ModelsFile
  /** The tool servers functions may use; `${VAR}` references read from the environment. */
  readonly tool_servers?: ReadonlyArray<ToolServerFileEntry>
  /** The longest a workflow run may go on, in hours (2–8,760; default 720, 30 days). */
  readonly workflow_max_run_hours?: number
  /** The most open calls among all runs under one root workflow run (1–9,999; default 1,000). */
  readonly workflow_max_open_calls?: number
}

/**
 * Reads the server's settings from the environment (HOST, PORT, DATABASE_URL, DATABASE_SCHEMA, PUBLIC_URL,
 * STUDIO_ORIGIN) and an
 * optional YAML file named by RUNLEDGER_SETTINGS. Local mode is on unless the file turns it off, and only on a
 * loopback address: the server refuses to start local mode anywhere else.
 */
export const readServerSettings = (env: NodeJS.ProcessEnv): ServerSettings => {
  const file: SettingsFile = env.RUNLEDGER_SETTINGS ? (parse(readFileSync(env.RUNLEDGER_SETTINGS, "utf8")) ?? {}) : {}
  const host = env.HOST ?? "127.0.0.1"
  const port = Number(env.PORT ?? 4100)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, not ${env.PORT}`)
  const localMode = file.local_mode ?? true
  if (localMode && !isLoopback(host) && host !== "localhost")
    throw new Error(`Local mode trusts every request, so it listens only on a loopback address, not ${host}.`)
  const models = readModelSettings(file.models, env)
  const toolServers = readToolServers(file.tool_servers)
  return {
    host,
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    ...(env.DATABASE_SCHEMA ? { databaseSchema: env.DATABASE_SCHEMA } : {}),
    runtime: {
      localMode,
      localName: env.USER ?? "local developer",
      apiKeys: (file.api_keys ?? []).map((key) => ({ ...key })),
      ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
      ...(env.STUDIO_ORIGIN ? { studioOrigin: env.STUDIO_ORIGIN } : {}),
      ...(models === undefined ? {} : { models }),
      ...(toolServers.length === 0 ? {} : { toolServers }),
      ...(file.workflow_max_run_hours === undefined
        ? {}
        : { maxRunMilliseconds: file.workflow_max_run_hours * 3_600_000 }),
      ...(file.workflow_max_open_calls === undefined ? {} : { maxOpenCalls: file.workflow_max_open_calls })
    }
  }
}
