import { Schema } from "effect"

/** A tool's mark, as the API answers it. */
export const Mark = Schema.Literal("reads", "acts", "unmarked")

/** What gave a tool its mark. */
export const MarkedBy = Schema.Literal("server", "method", "catalogue", "settings")

/** Why a server could not be asked for its tools, as search and dry_run answer it. */
export const ServerBecause = Schema.Literal(
  "key_refused",
  "scope_lacking",
  "failing",
  "rate_limited",
  "unreachable",
  "connection_pending",
  "connection_broken",
  "connection_not_allowed",
  "connection_unavailable"
)

/** One server a search covered (HTTP "Searching the tools"). */
export const SearchedServer = Schema.Struct({
  name: Schema.String,
  connection: Schema.optional(Schema.String),
  provider: Schema.NullOr(Schema.String),
  type: Schema.Literal("mcp", "stdio", "openapi"),
  record_content: Schema.Boolean,
  tool_count: Schema.optional(Schema.Number),
  unavailable: Schema.optional(Schema.String),
  because: Schema.optional(ServerBecause),
  playbooks: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "SearchedServer" })

/** One tool a search found. */
export const FoundTool = Schema.Struct({
  server: Schema.String,
  tool: Schema.String,
  summary: Schema.String,
  mark: Mark
}).annotations({ identifier: "FoundTool" })

/** search's answer: the servers searched, the tools found, the names of the servers searched. */
export const ToolSearch = Schema.Struct({
  servers: Schema.Array(SearchedServer),
  tools: Schema.Array(FoundTool),
  scopes: Schema.Array(Schema.String)
}).annotations({ identifier: "ToolSearch" })
export type ToolSearch = typeof ToolSearch.Type

/** The words a search takes: up to 8 words of up to 64 characters each, separated by spaces. */
export const SearchTerms = Schema.String.pipe(
  Schema.filter(
    (text) => {
      const words = text.split(" ").filter((word) => word.length > 0)
      return words.length <= 8 && words.every((word) => [...word].length <= 64)
    },
    { message: () => "terms is up to 8 words of up to 64 characters each, separated by spaces." }
  )
).annotations({ description: "Up to 8 words of up to 64 characters each, separated by spaces." })

/** A server's name: 1 to 32 lowercase letters, digits and hyphens, first a letter. */
export const ServerName = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9-]{0,31}$/, {
    message: () => "A server's name is 1 to 32 lowercase letters, digits and hyphens, first a letter."
  })
).annotations({ description: "The server's name, as a function writes it before the slash." })

/** A tool's name: 1 to 128 letters, digits, `_`, `-` and `.`. */
export const ToolName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_.-]{1,128}$/, {
    message: () => "A tool's name is 1 to 128 letters, digits, _, - and ."
  })
).annotations({ description: "The tool's name, as a function writes it after the slash." })
