import type { Caller } from "@runledger/core"
import type { Endpoint } from "./Endpoint.js"

/** First, before anything names the caller: read the guide `start`, and how a playbook is built from the job. */
const readStartFirst =
  "Before you build or change anything, read the guide start with get_guide: it says which function type each part of a job takes. A playbook is built from the job the person wants done again and again: each part is a function of the type its work needs, and a workflow runs the parts in order."

/** What a playbook is, and who does what around it. */
const whatAPlaybookIs =
  "A playbook holds work that keeps running after this conversation ends, in any line of business. RunLedger makes and runs playbooks, Studio manages them, and you are a separate client of both. A playbook contains one brain, its reusable functions and its workflows, with their runs."

/** What the connection acts on, by endpoint; on the caller's own org, with the playbook tools it lists. */
const actsOn = (endpoint: Endpoint, caller: Caller, listed: ReadonlySet<string>): string => {
  const org = endpoint.org ?? caller.org
  if (endpoint.kind === "playbook")
    return `This connection acts on one playbook, ${endpoint.playbook}, of the org ${org}; its tools take no playbook argument.`
  if (endpoint.kind === "org")
    return `This connection acts on the playbooks of the org ${org}. Definitions are made on each playbook's own endpoint, /orgs/${org}/playbooks/<playbook>/mcp.`
  const tools = ["list_playbooks", "create_playbook"].filter((name) => listed.has(name))
  const withTools = tools.length === 0 ? "" : `, whose playbooks you reach with ${tools.join(" and ")}`
  return `This connection acts on the org its credential belongs to, ${org}${withTools}. A tool that works inside a playbook takes the playbook's id as its playbook argument.`
}

/** Whom the connection acts as, by name and id, and in which org. */
const actsAs = (caller: Caller): string => {
  if (caller.kind === "key") return `This connection acts as the key ${caller.name} in the org ${caller.org}.`
  if (caller.kind === "local")
    return `This connection acts as ${caller.name} (${caller.id}), the local developer, in the org ${caller.org}.`
  return `This connection acts as ${caller.name} (${caller.id}) in the org ${caller.org}.`
}

/**
 * The instructions an agent receives when it connects (MCP seed "instructions"), written for its caller and the
 * tools the connection lists: read `start` first, what a playbook is, what the connection acts on and as whom, and
 * that a tool that cannot do something says why.
 */
export const instructionsFor = (endpoint: Endpoint, caller: Caller, listed: ReadonlySet<string>): string =>
  [
    readStartFirst,
    whatAPlaybookIs,
    actsOn(endpoint, caller, listed),
    `${actsAs(caller)} When you read who created, added, connected, started or answered something, tell the person you act for apart from the others.`,
    "A tool that cannot do what you asked says why and what to change; read its words before you call it again."
  ].join("\n\n")
