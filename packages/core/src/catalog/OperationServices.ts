import type { RuntimeConfig } from "../config/RuntimeConfig.js"
import type { Formats } from "../formats/DefinitionFormat.js"
import type { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import type { Views } from "../ports/Views.js"

/** The services an operation's handler may use. */
export type OperationServices = Ledger | Views | Ids | RuntimeConfig | Formats
