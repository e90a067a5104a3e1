import type { McpEndpoint } from "@runledger/core"

/** One MCP endpoint a request arrived at, with the org and playbook its path names. */
export interface Endpoint {
  readonly kind: McpEndpoint
  /** The org of `/orgs/{org}/…`; absent where the org is the caller's own. */
  readonly org?: string
  /** The playbook of `/orgs/{org}/playbooks/{playbook}/mcp`. */
  readonly playbook?: string
}

const orgPath = /^\/orgs\/([^/]+)\/mcp$/
const playbookPath = /^\/orgs\/([^/]+)\/playbooks\/([^/]+)\/mcp$/

/** Decodes a path segment, or undefined when it is not valid percent-encoding. */
const segment = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

/** The endpoint a path names: `/mcp`, `/directory`, `/orgs/{org}/mcp` or `/orgs/{org}/playbooks/{playbook}/mcp`. */
export const endpointOf = (pathname: string): Endpoint | undefined => {
  if (pathname === "/mcp") return { kind: "root" }
  if (pathname === "/directory") return { kind: "directory" }
  const inOrg = orgPath.exec(pathname)
  if (inOrg !== null) {
    const org = segment(inOrg[1])
    return org === undefined ? undefined : { kind: "org", org }
  }
  const inPlaybook = playbookPath.exec(pathname)
  if (inPlaybook !== null) {
    const org = segment(inPlaybook[1])
    const playbook = segment(inPlaybook[2])
    return org === undefined || playbook === undefined ? undefined : { kind: "playbook", org, playbook }
  }
  return undefined
}

/** Whether an endpoint's path names the playbook its tools act in; elsewhere a tool takes it as an argument. */
export const namesPlaybook = (kind: McpEndpoint): boolean => kind === "playbook"
