import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport
} from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import {
  type ListedTool,
  type ToolAnswer,
  type ToolCall,
  ToolCallFailed,
  type ToolHints,
  type ToolServerFailed,
  toolServerLimits
} from "@runledger/core"
import { Duration, Effect } from "effect"
import { HttpProbe } from "./HttpProbe.js"
import { markOfHints, withSettings } from "./marks.js"
import type { PreparedServer } from "./PreparedServer.js"
import { failureOfStatus, messageOf, serverFailed } from "./serverFailure.js"

/** The most bytes one answer may hold: 4 MiB from a process, 16 MiB over HTTP (function-formats.md §1.8). */
const answerCap = { stdio: 4 * 1_048_576, http: 16 * 1_048_576 }

/** An open connection to an MCP server, and the probe of its HTTP answers (none for a process). */
interface Session {
  readonly client: Client
  readonly probe: HttpProbe | undefined
}

/** The server's failure of a thrown error, from what the probe saw (HTTP) or the error alone (a process). */
const failureOf = (prepared: PreparedServer, scrub: (text: string) => string, probe: HttpProbe | undefined) => {
  const server = prepared.entry.name
  return (error: unknown): ToolServerFailed => {
    if (probe?.unreachable !== undefined)
      return serverFailed(server, "unreachable", messageOf(probe.unreachable), scrub)
    if (probe?.status !== undefined && probe.status >= 400)
      return serverFailed(
        server,
        failureOfStatus(probe.status),
        `HTTP ${probe.status}. ${messageOf(error)}`,
        scrub,
        probe.retryAfterMs
      )
    if (probe === undefined && /ENOENT|spawn|EACCES/.test(messageOf(error)))
      return serverFailed(server, "unreachable", messageOf(error), scrub)
    return serverFailed(server, "failing", messageOf(error), scrub)
  }
}

/** Opens a session within the entry's connect limit; it is closed when the scope closes. */
const open = (prepared: PreparedServer, scrub: (text: string) => string) =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      const entry = prepared.entry
      const probe = entry.type === "mcp" ? new HttpProbe(entry.requestId) : undefined
      const transport =
        entry.type === "stdio"
          ? new StdioClientTransport({
              command: entry.command,
              args: [...(entry.args ?? [])],
              env: { ...stdioBaseEnv(), ...prepared.env },
              ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
              stderr: "ignore"
            })
          : new StreamableHTTPClientTransport(new URL(prepared.url!), {
              requestInit: { headers: prepared.headers },
              fetch: probe!.fetch
            })
      const client = new Client({ name: "RunLedger", version: "0.1.0" })
      const limit = entry.connectTimeoutMs ?? toolServerLimits.connectMs
      return Effect.tryPromise({
        try: () => client.connect(transport, { timeout: limit }),
        catch: failureOf(prepared, scrub, probe)
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(limit),
          onTimeout: () =>
            serverFailed(entry.name, "unreachable", `It did not open within ${limit / 1000} seconds.`, scrub)
        }),
        Effect.onError(() => Effect.promise(() => client.close().catch(() => undefined))),
        Effect.as<Session>({ client, probe })
      )
    }),
    ({ client }) => Effect.promise(() => client.close().catch(() => undefined))
  )

/** The environment a process starts with besides the entry's own: its path and home, never the runtime's secrets. */
const stdioBaseEnv = (): Record<string, string> =>
  Object.fromEntries(
    ["PATH", "HOME", "SYSTEMROOT", "TEMP", "TMP"].flatMap((name) =>
      process.env[name] === undefined ? [] : [[name, process.env[name] as string]]
    )
  )

/** The tools an MCP server lists, with their marks, within the connect and list limits. */
export const listMcpTools = (
  prepared: PreparedServer,
  scrub: (text: string) => string
): Effect.Effect<ReadonlyArray<ListedTool>, ToolServerFailed> =>
  Effect.scoped(
    Effect.gen(function* () {
      const session = yield* open(prepared, scrub)
      const limit = prepared.entry.listTimeoutMs ?? toolServerLimits.listMs
      const listed = yield* Effect.tryPromise({
        try: (signal) => session.client.listTools(undefined, { timeout: limit, signal }),
        catch: failureOf(prepared, scrub, session.probe)
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(limit),
          onTimeout: () =>
            serverFailed(
              prepared.entry.name,
              "failing",
              `It did not list its tools within ${limit / 1000} seconds.`,
              scrub
            )
        })
      )
      return listed.tools.map((tool): ListedTool => {
        const hints = hintsOf(tool.annotations)
        const marking = withSettings(prepared.entry, tool.name, markOfHints(hints))
        return JSON.parse(
          scrub(
            JSON.stringify({
              name: tool.name,
              ...(tool.title === undefined ? {} : { title: tool.title }),
              description: tool.description ?? "",
              inputSchema: tool.inputSchema,
              ...(hints === undefined ? {} : { annotations: hints }),
              mark: marking.mark,
              markedBy: marking.markedBy
            })
          )
        )
      })
    })
  )

/** The four hints of a tool's annotations, each only where given; undefined when none is. */
const hintsOf = (annotations: Record<string, unknown> | undefined): ToolHints | undefined => {
  if (annotations === undefined) return undefined
  const hints: Record<string, boolean> = {}
  for (const name of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"])
    if (typeof annotations[name] === "boolean") hints[name] = annotations[name] as boolean
  return Object.keys(hints).length === 0 ? undefined : hints
}

/** Calls one tool of an MCP server: opened within its connect limit, answered within the call's (30 s). */
export const callMcpTool = (
  prepared: PreparedServer,
  scrub: (text: string) => string,
  call: ToolCall
): Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed> =>
  Effect.scoped(
    Effect.gen(function* () {
      const session = yield* open(prepared, scrub)
      const limit = call.timeoutMs ?? toolServerLimits.callMs
      const started = Date.now()
      const ids = () => ({
        jsonrpcId: session.probe?.callId ?? null,
        ...(session.probe?.serverRequestId === undefined ? {} : { serverRequestId: session.probe.serverRequestId })
      })
      const failed = (because: ToolCallFailed["because"], detail: string, retryAfterMs?: number) =>
        new ToolCallFailed({
          because,
          detail: scrub(detail),
          durationMs: Date.now() - started,
          ...ids(),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs })
        })
      const result = yield* Effect.tryPromise({
        try: (signal) =>
          session.client.callTool(
            {
              name: call.tool,
              arguments: call.arguments,
              ...(call.runId === undefined ? {} : { _meta: { "io.runledger/run_id": call.runId } })
            },
            { timeout: limit, signal }
          ),
        catch: (error): ToolServerFailed | ToolCallFailed => {
          const probe = session.probe
          if (
            probe?.unreachable !== undefined ||
            (probe?.status !== undefined && [401, 403, 429].includes(probe.status))
          )
            return failureOf(prepared, scrub, probe)(error)
          if (error instanceof ProtocolError && error.code === -32602) return failed("arguments_refused", error.message)
          if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
            return failed("timed_out", `The tool did not answer within ${limit / 1000} seconds.`)
          return failed("server_failure", messageOf(error), probe?.retryAfterMs)
        }
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(limit),
          onTimeout: () => failed("timed_out", `The tool did not answer within ${limit / 1000} seconds.`)
        })
      )
      const cap = prepared.entry.type === "stdio" ? answerCap.stdio : answerCap.http
      const whole = JSON.stringify(result)
      if (Buffer.byteLength(whole) > cap)
        return yield* Effect.fail(failed("too_large", `The tool's answer held more than ${cap / 1_048_576} MiB.`))
      const answer = JSON.parse(scrub(whole)) as {
        content?: Array<Record<string, unknown>>
        structuredContent?: Record<string, unknown>
        isError?: boolean
      }
      return {
        content: answer.content ?? [],
        ...(answer.structuredContent === undefined ? {} : { structuredContent: answer.structuredContent }),
        isError: answer.isError === true,
        durationMs: Date.now() - started,
        ...ids()
      }
    })
  )
