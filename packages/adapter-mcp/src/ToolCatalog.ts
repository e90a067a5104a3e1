import type { Tool } from "@modelcontextprotocol/server"
import { annotationsOf, type Caller, type McpEndpoint, mayCall, type Operation } from "@runledger/core"
import { type Endpoint, namesPlaybook } from "./Endpoint.js"
import { inputSchemaOf } from "./inputSchemaOf.js"

/** One operation as the tool an endpoint lists. */
export interface CatalogTool {
  readonly operation: Operation
  readonly tool: Tool
  /** Whether the tool takes the playbook it acts in as its `playbook` argument. */
  readonly takesPlaybook: boolean
}

/** The tools of each endpoint, built once from the catalog; a connection lists those its caller may call. */
export interface ToolCatalog {
  readonly toolsFor: (endpoint: Endpoint, caller: Caller) => ReadonlyArray<CatalogTool>
}

/** The tool of an operation as an endpoint lists it: its name, words, argument schema and annotations. */
const toolOf = (operation: Operation, takesPlaybook: boolean, kind: McpEndpoint): CatalogTool => ({
  operation,
  takesPlaybook,
  tool: {
    name: operation.name,
    title: operation.title,
    description: operation.description,
    inputSchema: inputSchemaOf(operation, takesPlaybook, kind === "directory") as Tool["inputSchema"],
    annotations: annotationsOf(operation)
  }
})

const endpointKinds: ReadonlyArray<McpEndpoint> = ["root", "org", "playbook", "directory"]

/**
 * Builds every endpoint's tools from a catalog at once, so a declaration whose input cannot be a tool's arguments
 * fails when the adapter is made rather than on a request.
 */
export const makeToolCatalog = (catalog: ReadonlyArray<Operation>): ToolCatalog => {
  const byKind = new Map(
    endpointKinds.map((kind) => {
      const tools = catalog
        .filter((operation) => operation.served.mcp.includes(kind))
        .map((operation) => toolOf(operation, operation.scope === "playbook" && !namesPlaybook(kind), kind))
      return [kind, tools] as const
    })
  )
  return {
    toolsFor: (endpoint, caller) =>
      (byKind.get(endpoint.kind) ?? []).filter(({ operation }) => mayCall(operation, caller))
  }
}
