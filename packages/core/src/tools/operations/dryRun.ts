import { Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { argumentsTooLarge, checkArguments } from "../checkArguments.js"
import { entryFor, listedTool } from "../offeredTool.js"
import { allowsTool } from "../servingServers.js"
import { Mark, ServerBecause } from "../ToolSearch.js"
import { toolNotOffered } from "../toolRefusals.js"
import { ToolArguments, ToolPath } from "./toolFields.js"
import { ArgumentsCheck, argumentsRefused } from "./validate.js"

/** What dry_run reports: what execute_connection would check, without calling the tool. */
export const DryRun = Schema.Struct({
  would_run: Schema.Boolean,
  needs: Schema.Literal("playbook:write"),
  caller_may: Schema.Boolean,
  playbook_retired: Schema.Boolean,
  allowed: Schema.Boolean,
  mark: Schema.NullOr(Mark),
  arguments: Schema.NullOr(ArgumentsCheck),
  server: Schema.Struct({
    reachable: Schema.Literal("yes", "no"),
    because: Schema.optional(ServerBecause)
  })
}).annotations({ identifier: "DryRun" })

/**
 * dry_run: whether execute_connection would call a tool now, and why not; the arguments checked as validate
 * checks them. A server not set up for the playbook is refused as `tool_not_offered`, as is a tool it does not list.
 */
export const dryRun = declare({
  name: "dry_run",
  title: "Check a tool call without making it",
  description:
    "Report what execute_connection would check for a tool and its arguments, without calling the tool: whether it would run now (the caller may, the playbook is not retired, the operator allows the tool and its server responded), the permission it needs, the tool's mark, and the arguments checked against its input schema. It returns would_run: true even for arguments the schema refuses; the arguments field reports them.",
  tag: "tool-servers",
  kind: "query",
  scope: "playbook",
  route: { method: "POST", path: "/tool-servers/{server}/tools/{tool}/dry-run" },
  input: Schema.Struct({ ...ToolPath, arguments: Schema.optional(ToolArguments) }),
  output: DryRun,
  permission: "playbook:read",
  hints: { reachesOutside: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["unavailable", "invalid_input"],
  summarize: (output) =>
    output.would_run
      ? "execute_connection would call this tool now."
      : "execute_connection would not call this tool now.",
  handle: (input, { org, playbook, caller }) =>
    Effect.gen(function* () {
      if (input.arguments !== undefined && argumentsTooLarge(input.arguments))
        return yield* Effect.fail(argumentsRefused)
      const entry = yield* entryFor(org, playbook!.id, input.server)
      const allowed = allowsTool(entry, input.tool)
      const listing = allowed ? yield* Effect.either(listedTool(input.server, input.tool)) : undefined
      const tool = listing !== undefined && Either.isRight(listing) ? listing.right : undefined
      if (listing !== undefined && Either.isRight(listing) && tool === undefined)
        return yield* Effect.fail(toolNotOffered("tool_not_listed", input.server, input.tool))
      const callerMay = caller.holds("playbook:write")
      const retired = playbook!.status === "retired"
      const reachable = listing === undefined || Either.isRight(listing)
      return {
        would_run: callerMay && !retired && allowed && reachable && tool !== undefined,
        needs: "playbook:write" as const,
        caller_may: callerMay,
        playbook_retired: retired,
        allowed,
        mark: tool?.mark ?? null,
        arguments:
          input.arguments === undefined
            ? null
            : tool === undefined
              ? {
                  valid: null,
                  issues: [
                    { path: "", message: "The tool's input schema was not read, so the arguments were not checked." }
                  ]
                }
              : checkArguments(tool.inputSchema, input.arguments),
        server:
          listing !== undefined && Either.isLeft(listing)
            ? { reachable: "no" as const, because: listing.left.because as "failing" }
            : { reachable: "yes" as const }
      }
    })
})
