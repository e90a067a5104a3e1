import { createHash } from "node:crypto"
import type { ToolServerEntry } from "@runledger/core"
import { resolveReferences } from "./secrets.js"

/**
 * An entry with its `${VAR}` references read from the environment: its headers, query parameters, address and
 * process environment as they are sent, the values to scrub, and the variables that were not set (a server with
 * any cannot be used, and says which).
 */
export interface PreparedServer {
  readonly entry: ToolServerEntry
  readonly headers: Record<string, string>
  readonly queryParams: Record<string, string>
  /** The MCP address, or the HTTP API's base address, with its query parameters; absent for stdio. */
  readonly url?: string
  readonly env: Record<string, string>
  readonly secrets: ReadonlyArray<string>
  readonly missing: ReadonlyArray<string>
  /**
   * What its held sessions are kept under: its name and a digest of where it is and the credentials it is given
   * (address, headers, process and environment), so a session is never reused for other credentials.
   */
  readonly key: string
}

/** Reads an entry's references from the environment. */
export const prepareServer = (
  entry: ToolServerEntry,
  environment: Readonly<Record<string, string | undefined>>
): PreparedServer => {
  const secrets: Array<string> = []
  const missing: Array<string> = []
  const resolve = (text: string) => {
    const resolved = resolveReferences(text, environment)
    secrets.push(...resolved.values)
    missing.push(...resolved.missing)
    return resolved.text
  }
  const resolveAll = (record: Readonly<Record<string, string>> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).map(([name, value]) => [name, resolve(value)]))
  const headers = resolveAll(entry.headers)
  const queryParams = resolveAll(entry.queryParams)
  const env = entry.type === "stdio" ? resolveAll(entry.env) : {}
  const base = entry.type === "mcp" ? resolve(entry.url) : entry.type === "openapi" ? entry.baseUrl : undefined
  const url = base === undefined ? undefined : withQuery(base, queryParams)
  const reached = entry.type === "stdio" ? { command: entry.command, args: entry.args, cwd: entry.cwd } : { url }
  const key = `${entry.name} ${createHash("sha256").update(JSON.stringify({ reached, headers, env })).digest("hex")}`
  return { entry, headers, queryParams, ...(url === undefined ? {} : { url }), env, secrets, missing, key }
}

/** An address with query parameters added. */
export const withQuery = (address: string, query: Readonly<Record<string, string>>): string => {
  const url = new URL(address)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return url.toString()
}
