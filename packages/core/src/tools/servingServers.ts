import type { RuntimeSettings } from "../config/RuntimeConfig.js"
import type { ToolServerEntry } from "./ToolServerEntry.js"

/** Whether an entry serves an org: it names none, or names that one. */
export const servesOrg = (entry: ToolServerEntry, org: string): boolean =>
  entry.orgs === undefined || entry.orgs.includes(org)

/** Whether an entry serves a playbook of an org. */
export const servesPlaybook = (entry: ToolServerEntry, org: string, playbook: string): boolean =>
  servesOrg(entry, org) && (entry.playbooks === undefined || entry.playbooks.includes(playbook))

/** The entries that serve an org, or one playbook of it, in the order of the settings. */
export const servingServers = (
  settings: RuntimeSettings,
  org: string,
  playbook?: string
): ReadonlyArray<ToolServerEntry> =>
  (settings.toolServers ?? []).filter((entry) =>
    playbook === undefined ? servesOrg(entry, org) : servesPlaybook(entry, org, playbook)
  )

/** Whether the operator allows a tool on its server's entry: the entry names none, or names it. */
export const allowsTool = (entry: ToolServerEntry, tool: string): boolean =>
  entry.allowed === undefined || entry.allowed.includes(tool)

/** Whether the content of an entry's calls is kept: unless `recordContent` is false. */
export const keepsContent = (entry: ToolServerEntry): boolean => entry.recordContent !== false

/** The type a search answers: `mcp`, `stdio` or `openapi`. */
export const serverType = (entry: ToolServerEntry): ToolServerEntry["type"] => entry.type
