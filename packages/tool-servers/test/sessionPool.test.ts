import { fileURLToPath } from "node:url"
import { defaultSettings, RuntimeConfig, type ToolServerEntry, ToolServers } from "@runledger/core"
import { makeScrubber, ToolServersLive } from "@runledger/tool-servers"
import { Effect, Either, Fiber, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { McpSession } from "../src/McpSession.js"
import { callMcpTool, listMcpTools } from "../src/McpTools.js"
import { prepareServer } from "../src/PreparedServer.js"
import { makeSessionPool, poolDefaults, type SessionPool } from "../src/SessionPool.js"
import { type InventoryHttp, serveInventory } from "./fakes/inventoryHttp.js"
import { makeManualClock } from "./fakes/manualClock.js"

const secret = "inv-secret-0123456789"
const stdioScript = fileURLToPath(new URL("./fakes/inventoryStdio.mjs", import.meta.url))

let inventory: InventoryHttp
let entries: Record<"http" | "stdio", ToolServerEntry>

beforeAll(async () => {
  inventory = await serveInventory(secret, "acme")
  entries = {
    http: {
      name: "inventory",
      type: "mcp",
      url: `${inventory.url}/mcp`,
      headers: { Authorization: `Bearer ${secret}` },
      queryParams: { tenant: "acme" }
    },
    stdio: { name: "stock", type: "stdio", command: process.execPath, args: [stdioScript], connectTimeoutMs: 30_000 }
  }
})
afterAll(() => inventory.close())

describe("the sessions a pool closes", () => {
  it("are never one a use took meanwhile: the call after a tool's own error is answered on a session of its own", async () => {
    const clock = makeManualClock()
    const call = (tool: string, args: Record<string, unknown> = {}) =>
      Effect.flatMap(ToolServers, (tools) => tools.call({ server: "inventory", tool, arguments: args }))
    const program = Effect.gen(function* () {
      // Two sessions held, each after a tool answered its own error: the first call is held while the second runs.
      const first = inventory.holdCall()
      const firstCall = yield* Effect.fork(call("broken_lookup"))
      yield* Effect.promise(() => first.reached)
      const errors = [yield* call("broken_lookup")]
      first.release()
      errors.push(yield* Fiber.join(firstCall))
      // Both sit unused past the idle time: the sweep closes them, the first one's end held at the server.
      const ending = inventory.holdEnding()
      clock.advance(1_000)
      yield* Effect.promise(() => ending.reached)
      // A call meanwhile, in flight while the sweep ends what it chose.
      const held = inventory.holdCall()
      const next = yield* Effect.fork(Effect.either(call("get_stock_level", { sku: "N-1" })))
      yield* Effect.promise(() => held.reached)
      const swept = clock.nextSleep(1_000)
      ending.release()
      yield* Effect.promise(() => swept)
      held.release()
      return { errors, next: yield* Fiber.join(next) }
    })
    const { errors, next } = await Effect.runPromise(
      program.pipe(
        Effect.provide(ToolServersLive.layer({}, { idleMs: 1_000, held: 8 })),
        Effect.provide(Layer.succeed(RuntimeConfig, { ...defaultSettings, toolServers: [entries.http] })),
        Effect.withClock(clock.clock)
      )
    )
    expect(errors.map((answer) => answer.isError)).toEqual([true, true])
    expect(Either.getOrThrow(next).structuredContent).toMatchObject({ stock: { sku: "N-1" } })
    expect(inventory.calls.filter((made) => made.arguments.sku === "N-1")).toHaveLength(1)
  })
})

/**
 * A pool whose first session handed to a use has its client closed first, as when the MCP client's transport
 * closes after the session was taken and before the request was handed to it.
 */
const closingFirst = (pool: SessionPool): SessionPool => {
  let closed = false
  const closeFirst = (session: McpSession) =>
    Effect.promise(async () => {
      if (closed) return
      closed = true
      await session.client.close()
    })
  return {
    lease: (prepared, scrub, use, fresh) =>
      pool.lease(prepared, scrub, (session) => Effect.zipRight(closeFirst(session), use(session)), fresh)
  }
}

/** Runs `use` on a pool of its own whose first session closes before it is used. */
const onClosingPool = <A, E>(use: (pool: SessionPool) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(makeSessionPool(poolDefaults), (pool) => use(closingFirst(pool)))))

describe("a session whose client closed before a request was sent", () => {
  for (const kind of ["http", "stdio"] as const) {
    it(`sends the call once more, once, on a new session (${kind})`, async () => {
      const before = inventory.calls.length
      const answer = await onClosingPool((pool) =>
        callMcpTool(pool, prepareServer(entries[kind], {}), makeScrubber([]), {
          server: entries[kind].name,
          tool: "get_stock_level",
          arguments: { sku: `C-${kind}` }
        })
      )
      expect(answer.structuredContent).toMatchObject({ stock: { sku: `C-${kind}` } })
      if (kind === "http") expect(inventory.calls.slice(before)).toHaveLength(1)
    }, 60_000)

    it(`lists the tools on a new session, never as none (${kind})`, async () => {
      const tools = await onClosingPool((pool) =>
        listMcpTools(pool, prepareServer(entries[kind], {}), makeScrubber([]))
      )
      expect(tools.map((tool) => tool.name)).toContain("get_stock_level")
    }, 60_000)
  }
})
