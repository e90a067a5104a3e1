import { RuntimeConfig, type ToolServerFailed, ToolServers, ToolServerUnknown } from "@runledger/core"
import { Effect, Layer } from "effect"
import { callMcpTool, listMcpTools } from "./McpTools.js"
import { makeOpenApiServer } from "./OpenApiServer.js"
import { type PreparedServer, prepareServer } from "./PreparedServer.js"
import { makeSessionPool, type PoolSettings, poolDefaults } from "./SessionPool.js"
import { makeScrubber } from "./secrets.js"
import { serverFailed } from "./serverFailure.js"

/**
 * The tool servers of the runtime's settings (`toolServers`), their `${VAR}` references read from the environment
 * once, when the layer is built: MCP servers over streamable HTTP and as processes, whose sessions are held between
 * uses (`pool`: how long one may sit unused and how many unused are held; ADR 0306) and closed with the layer, and
 * HTTP APIs whose OpenAPI document is read when first needed and kept.
 */
export const layer = (
  environment: Readonly<Record<string, string | undefined>> = process.env,
  pool: PoolSettings = poolDefaults
): Layer.Layer<ToolServers, never, RuntimeConfig> =>
  Layer.scoped(
    ToolServers,
    Effect.gen(function* () {
      const settings = yield* RuntimeConfig
      const sessions = yield* makeSessionPool(pool)
      const prepared = (settings.toolServers ?? []).map((entry) => prepareServer(entry, environment))
      const scrub = makeScrubber(prepared.flatMap((server) => server.secrets))
      const byName = new Map(prepared.map((server) => [server.entry.name, server]))
      const apis = new Map(
        yield* Effect.forEach(
          prepared.filter((server) => server.entry.type === "openapi"),
          (server) => Effect.map(makeOpenApiServer(server, scrub), (api) => [server.entry.name, api] as const)
        )
      )
      /** The server of a name, or why it cannot be used before anything is sent. */
      const find = (name: string): Effect.Effect<PreparedServer, ToolServerFailed | ToolServerUnknown> => {
        const server = byName.get(name)
        if (server === undefined) return Effect.fail(new ToolServerUnknown({ server: name }))
        if (server.missing.length > 0)
          return Effect.fail(
            serverFailed(
              name,
              "key_refused",
              `The environment does not set ${server.missing.join(", ")}, which its entry names.`,
              scrub
            )
          )
        return Effect.succeed(server)
      }
      return ToolServers.of({
        list: (name, options) =>
          Effect.flatMap(find(name), (server) =>
            server.entry.type === "openapi"
              ? apis.get(name)!.list
              : listMcpTools(sessions, server, scrub, options?.refresh === true)
          ),
        call: (call) =>
          Effect.flatMap(find(call.server), (server) =>
            server.entry.type === "openapi"
              ? apis.get(call.server)!.call(call)
              : callMcpTool(sessions, server, scrub, call)
          ),
        scrub
      })
    })
  )
