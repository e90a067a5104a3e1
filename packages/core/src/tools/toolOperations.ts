import type { Operation } from "../catalog/Operation.js"
import { dryRun } from "./operations/dryRun.js"
import { executeConnection } from "./operations/executeConnection.js"
import { introspect } from "./operations/introspect.js"
import { queryConnection } from "./operations/queryConnection.js"
import { search, searchInOrg, searchTool } from "./operations/search.js"
import { validate } from "./operations/validate.js"

/** The tool-server operations, in the catalog's order: search on both routes and its MCP tool, then one tool's. */
export const toolOperations: ReadonlyArray<Operation> = [
  search,
  searchInOrg,
  searchTool,
  introspect,
  validate,
  dryRun,
  queryConnection,
  executeConnection
]
