import type { ToolServerEntry } from "@runledger/core"

/** One entry of `tool_servers` in the settings file, in its snake_case keys. */
export interface ToolServerFileEntry {
  readonly name: string
  readonly type: "mcp" | "stdio" | "openapi"
  readonly url?: string
  readonly command?: string
  readonly args?: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  readonly cwd?: string
  readonly document?: string
  readonly document_text?: string
  readonly base_url?: string
  readonly orgs?: ReadonlyArray<string>
  readonly playbooks?: ReadonlyArray<string>
  readonly allowed?: ReadonlyArray<string>
  readonly record_content?: boolean
  readonly headers?: Readonly<Record<string, string>>
  readonly query_params?: Readonly<Record<string, string>>
  readonly marks?: Readonly<Record<string, "reads" | "acts">>
  readonly request_id?: string
  readonly connect_timeout_ms?: number
  readonly list_timeout_ms?: number
  readonly provider?: string
}

/** Keeps the keys whose values are set. */
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T

/**
 * The tool servers of the settings file (`tool_servers`), as the runtime takes them. Their `${VAR}` references stay
 * as written: the tool servers read them from the environment when the runtime starts, and scrub their values.
 */
export const readToolServers = (entries: ReadonlyArray<ToolServerFileEntry> | undefined): Array<ToolServerEntry> =>
  (entries ?? []).map((entry) => {
    const shared = defined({
      name: entry.name,
      orgs: entry.orgs,
      playbooks: entry.playbooks,
      allowed: entry.allowed,
      recordContent: entry.record_content,
      headers: entry.headers,
      queryParams: entry.query_params,
      marks: entry.marks,
      requestId: entry.request_id,
      connectTimeoutMs: entry.connect_timeout_ms,
      listTimeoutMs: entry.list_timeout_ms,
      provider: entry.provider
    })
    switch (entry.type) {
      case "mcp":
        if (entry.url === undefined) throw new Error(`The tool server ${entry.name} (mcp) needs url.`)
        return { ...shared, type: "mcp", url: entry.url }
      case "stdio":
        if (entry.command === undefined) throw new Error(`The tool server ${entry.name} (stdio) needs command.`)
        return {
          ...shared,
          type: "stdio",
          ...defined({ command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd })
        }
      case "openapi":
        if (entry.document === undefined && entry.document_text === undefined)
          throw new Error(`The tool server ${entry.name} (openapi) needs document or document_text.`)
        return {
          ...shared,
          type: "openapi",
          ...defined({ document: entry.document, documentText: entry.document_text, baseUrl: entry.base_url })
        }
      default:
        throw new Error(
          `The tool server ${String((entry as { name?: string }).name)} has type ${String((entry as { type?: string }).type)}; it takes mcp, stdio or openapi.`
        )
    }
  })
