import { readFileSync } from "node:fs"
import { type ApiKeyConfig, isLoopback, type RuntimeSettings } from "@runledger/core"
import { parse } from "yaml"

/** How the example server is set up: where it listens, which store it uses, and the runtime's settings. */
export interface ServerSettings {
  readonly host: string
  readonly port: number
  /** PostgreSQL's address; absent = the memory store. */
  readonly databaseUrl: string | undefined
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
}

/**
 * Reads the server's settings from the environment (HOST, PORT, DATABASE_URL, PUBLIC_URL, STUDIO_ORIGIN) and an
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
  return {
    host,
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    runtime: {
      localMode,
      localName: env.USER ?? "local developer",
      apiKeys: (file.api_keys ?? []).map((key) => ({ ...key })),
      ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
      ...(env.STUDIO_ORIGIN ? { studioOrigin: env.STUDIO_ORIGIN } : {})
    }
  }
}
