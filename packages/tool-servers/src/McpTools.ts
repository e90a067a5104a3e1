import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client"
import {
  type ListedTool,
  type ToolAnswer,
  type ToolCall,
  ToolCallFailed,
  type ToolHints,
  type ToolServerFailed,
  toolServerLimits
} from "@runledger/core"
import { Data, Duration, Effect } from "effect"
import { announcesToolChanges, dropListing, failureOf, keptListingMs, type McpSession } from "./McpSession.js"
import { markOfHints, withSettings } from "./marks.js"
import type { PreparedServer } from "./PreparedServer.js"
import type { SessionPool } from "./SessionPool.js"
import { messageOf, serverFailed } from "./serverFailure.js"

/** The most bytes one answer may hold: 4 MiB from a process, 16 MiB over HTTP (function-formats.md §1.8). */
const answerCap = { stdio: 4 * 1_048_576, http: 16 * 1_048_576 }

/**
 * A held session that was gone before the request reached the server: one the server forgot (HTTP 404 to a request
 * naming it), a process that exited before it was sent, or a session closed before its client handed the request
 * to the transport. Nothing reached the tool, so it is sent again, once, on a new session (ADR 0307, ADR 0340).
 */
class SessionGone extends Data.TaggedError("SessionGone")<{ readonly detail: string }> {}

/**
 * Whether the session closed without handing its transport anything since it had sent `sent`. Its client then
 * fails a request with a plain "Not connected" error, or answers a listing with no tools (a closed client forgets
 * that the server has tools): either way the request reached no server.
 */
const closedUnsent = (session: McpSession, sent: number): boolean => session.closed && session.sent === sent

/**
 * A request's failure as its session gone before the request reached the server (the session then unfit), if so;
 * `sent` is what the session had sent when the request began.
 */
const goneOf = (session: McpSession, sent: number, error: unknown): SessionGone | undefined => {
  const gone =
    session.probe?.sessionForgotten === true ||
    (error instanceof SdkError &&
      (error.code === SdkErrorCode.NotConnected || error.code === SdkErrorCode.SendFailed)) ||
    closedUnsent(session, sent)
  if (!gone) return undefined
  session.broken = true
  return new SessionGone({ detail: messageOf(error) })
}

/**
 * Runs `use` on a held session of the server; when the session turns out gone before anything reached the server,
 * once more on a new one (a process started again, a session opened again), within the entry's connect limit.
 */
const onSession = <A, E>(
  pool: SessionPool,
  prepared: PreparedServer,
  scrub: (text: string) => string,
  use: (session: McpSession) => Effect.Effect<A, E | SessionGone>
): Effect.Effect<A, E | ToolServerFailed> => {
  const again = (failure: E | SessionGone | ToolServerFailed) =>
    failure instanceof SessionGone
      ? pool
          .lease(prepared, scrub, use, true)
          .pipe(
            Effect.catchAll((second) =>
              Effect.fail(
                second instanceof SessionGone
                  ? serverFailed(prepared.entry.name, "failing", second.detail, scrub)
                  : (second as E | ToolServerFailed)
              )
            )
          )
      : Effect.fail(failure)
  return Effect.catchAll(pool.lease(prepared, scrub, use), again)
}

/** The tools a session's server lists now, marked and scrubbed; kept on the session when the server announces changes. */
const listOn =
  (prepared: PreparedServer, scrub: (text: string) => string, limit: number, refresh: boolean) =>
  (session: McpSession): Effect.Effect<ReadonlyArray<ListedTool>, ToolServerFailed | SessionGone> => {
    const kept = session.tools
    if (kept !== undefined && !refresh && Date.now() - kept.at < keptListingMs) return Effect.succeed(kept.tools)
    session.probe?.reset()
    const changes = session.changes
    const sent = session.sent
    // The SDK's own timer and the effect's bound the listing alike: whichever ends it first, it ends the same way.
    const late = () => {
      session.broken = true
      return serverFailed(
        prepared.entry.name,
        "failing",
        `It did not list its tools within ${limit / 1000} seconds.`,
        scrub
      )
    }
    return Effect.tryPromise({
      // No signal: a use cut short leaves the session closed, which ends what it had in flight.
      try: () => session.client.listTools(undefined, { timeout: limit }),
      catch: (error): ToolServerFailed | SessionGone => {
        const gone = goneOf(session, sent, error)
        if (gone !== undefined) return gone
        if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return late()
        session.broken = !(error instanceof ProtocolError) && session.probe?.status !== 429
        return failureOf(prepared, scrub, session.probe)(error)
      }
    }).pipe(
      Effect.timeoutFail({ duration: Duration.millis(limit), onTimeout: late }),
      Effect.filterOrFail(
        () => !closedUnsent(session, sent),
        () => new SessionGone({ detail: "The session closed before its listing was sent." })
      ),
      Effect.map(({ tools }) => {
        const listed = tools.map((tool) => listedTool(prepared, scrub, tool))
        if (announcesToolChanges(session) && session.changes === changes)
          session.tools = { tools: listed, at: Date.now() }
        return listed
      })
    )
  }

/** One tool as the runtime lists it: its mark (the settings' in place of the server's), scrubbed. */
const listedTool = (
  prepared: PreparedServer,
  scrub: (text: string) => string,
  tool: {
    name: string
    title?: string | undefined
    description?: string | undefined
    inputSchema: Record<string, unknown>
    annotations?: Record<string, unknown> | undefined
  }
): ListedTool => {
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
}

/**
 * The tools an MCP server lists, with their marks, within the connect and list limits: the listing a held session
 * keeps while its server announces changes to its tools (unless `refresh`), else asked now.
 */
export const listMcpTools = (
  pool: SessionPool,
  prepared: PreparedServer,
  scrub: (text: string) => string,
  refresh = false
): Effect.Effect<ReadonlyArray<ListedTool>, ToolServerFailed> =>
  onSession(
    pool,
    prepared,
    scrub,
    listOn(prepared, scrub, prepared.entry.listTimeoutMs ?? toolServerLimits.listMs, refresh)
  )

/** The four hints of a tool's annotations, each only where given; undefined when none is. */
const hintsOf = (annotations: Record<string, unknown> | undefined): ToolHints | undefined => {
  if (annotations === undefined) return undefined
  const hints: Record<string, boolean> = {}
  for (const name of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"])
    if (typeof annotations[name] === "boolean") hints[name] = annotations[name] as boolean
  return Object.keys(hints).length === 0 ? undefined : hints
}

/** Calls one tool on a session, answered within the call's limit (30 s). */
const callOn =
  (prepared: PreparedServer, scrub: (text: string) => string, call: ToolCall) =>
  (session: McpSession): Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed | SessionGone> => {
    const limit = call.timeoutMs ?? toolServerLimits.callMs
    const probe = session.probe
    probe?.reset()
    const started = Date.now()
    const sent = session.sent
    const ids = () => ({
      jsonrpcId: probe?.callId ?? null,
      ...(probe?.serverRequestId === undefined ? {} : { serverRequestId: probe.serverRequestId })
    })
    const failed = (because: ToolCallFailed["because"], detail: string, retryAfterMs?: number) =>
      new ToolCallFailed({
        because,
        detail: scrub(detail),
        durationMs: Date.now() - started,
        ...ids(),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs })
      })
    return Effect.tryPromise({
      try: () =>
        session.client.callTool(
          {
            name: call.tool,
            arguments: call.arguments,
            ...(call.runId === undefined ? {} : { _meta: { "io.runledger/run_id": call.runId } })
          },
          { timeout: limit }
        ),
      catch: (error): ToolServerFailed | ToolCallFailed | SessionGone => {
        const gone = goneOf(session, sent, error)
        if (gone !== undefined) return gone
        if (error instanceof ProtocolError && error.code === -32602) {
          // A tool the server does not know (or no longer knows) is refused so too: it is listed again next time.
          dropListing(session)
          return failed("arguments_refused", error.message)
        }
        if (error instanceof ProtocolError) return failed("server_failure", error.message, probe?.retryAfterMs)
        session.broken = probe?.status !== 429
        if (probe?.unreachable !== undefined || (probe?.status !== undefined && [401, 403, 429].includes(probe.status)))
          return failureOf(prepared, scrub, probe)(error)
        if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
          return failed("timed_out", `The tool did not answer within ${limit / 1000} seconds.`)
        return failed("server_failure", messageOf(error), probe?.retryAfterMs)
      }
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(limit),
        onTimeout: () => {
          session.broken = true
          return failed("timed_out", `The tool did not answer within ${limit / 1000} seconds.`)
        }
      }),
      Effect.flatMap((result) => {
        const cap = prepared.entry.type === "stdio" ? answerCap.stdio : answerCap.http
        const whole = JSON.stringify(result)
        if (Buffer.byteLength(whole) > cap)
          return Effect.fail(failed("too_large", `The tool's answer held more than ${cap / 1_048_576} MiB.`))
        const answer = JSON.parse(scrub(whole)) as {
          content?: Array<Record<string, unknown>>
          structuredContent?: Record<string, unknown>
          isError?: boolean
        }
        return Effect.succeed({
          content: answer.content ?? [],
          ...(answer.structuredContent === undefined ? {} : { structuredContent: answer.structuredContent }),
          isError: answer.isError === true,
          durationMs: Date.now() - started,
          ...ids()
        })
      })
    )
  }

/**
 * Calls one tool of an MCP server on a held session (opened within its connect limit when none is held),
 * answered within the call's limit (30 s).
 */
export const callMcpTool = (
  pool: SessionPool,
  prepared: PreparedServer,
  scrub: (text: string) => string,
  call: ToolCall
): Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed> =>
  onSession(pool, prepared, scrub, callOn(prepared, scrub, call))
