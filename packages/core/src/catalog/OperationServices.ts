import type { RuntimeConfig } from "../config/RuntimeConfig.js"
import type { Formats } from "../formats/DefinitionFormat.js"
import type { Models } from "../models/Models.js"
import type { ContentStore } from "../ports/ContentStore.js"
import type { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import type { ToolServers } from "../ports/ToolServers.js"
import type { Views } from "../ports/Views.js"
import type { WorkflowEngine } from "../workflow/run/WorkflowEngine.js"

/** The services an operation's handler may use. */
export type OperationServices =
  | Ledger
  | Views
  | Ids
  | RuntimeConfig
  | Formats
  | Models
  | ToolServers
  | ContentStore
  | WorkflowEngine
