import {
  Client,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type Transport
} from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import { type ListedTool, type ToolServerFailed, toolServerLimits } from "@runledger/core"
import { Duration, Effect } from "effect"
import { HttpProbe } from "./HttpProbe.js"
import type { PreparedServer } from "./PreparedServer.js"
import { failureOfStatus, messageOf, serverFailed } from "./serverFailure.js"

/**
 * An open connection to an MCP server (a streamable HTTP session, or a process), held between uses: its client,
 * the probe of its HTTP answers (none for a process), whether it closed (a process that exited, or its client's
 * transport closed) or broke (a use that failed in a way that leaves it unfit), how many messages its client handed
 * its transport (`sent`: so a use that failed can tell whether it sent anything, ADR 0340), and the tools it
 * listed, kept while the server has promised to say when they change (`tools.listChanged`): dropped when it says
 * so, when the connection reports an error (its notices may be lost) and after `keptListingMs` (ADR 0306).
 * `changes` counts the drops, so a listing that crossed one is not kept.
 */
export interface McpSession {
  readonly client: Client
  readonly probe: HttpProbe | undefined
  closed: boolean
  broken: boolean
  sent: number
  tools: KeptListing | undefined
  changes: number
  /** When it was last given back, in epoch milliseconds. */
  idleSince: number
}

/** A listing a session keeps, and when it was listed (epoch milliseconds). */
export interface KeptListing {
  readonly tools: ReadonlyArray<ListedTool>
  readonly at: number
}

/** How long a session keeps a listing at most, notices or not: 60 s. */
export const keptListingMs = 60_000

/** Drops the listing a session keeps, so the next listing asks the server. */
export const dropListing = (session: McpSession): void => {
  session.tools = undefined
  session.changes++
}

/** Whether a session may serve another use. */
export const fit = (session: McpSession): boolean => !session.closed && !session.broken

/** Whether the server promised to announce changes to its tools, so a listing may be kept until it does. */
export const announcesToolChanges = (session: McpSession): boolean =>
  session.client.getServerCapabilities()?.tools?.listChanged === true

/** The server's failure of a thrown error, from what the probe saw (HTTP) or the error alone (a process). */
export const failureOf = (prepared: PreparedServer, scrub: (text: string) => string, probe: HttpProbe | undefined) => {
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

/** The environment a process starts with besides the entry's own: its path and home, never the runtime's secrets. */
const stdioBaseEnv = (): Record<string, string> =>
  Object.fromEntries(
    ["PATH", "HOME", "SYSTEMROOT", "TEMP", "TMP"].flatMap((name) =>
      process.env[name] === undefined ? [] : [[name, process.env[name] as string]]
    )
  )

/**
 * Opens a session within the entry's connect limit (10 s): starts the process, or initializes over HTTP. The
 * session notes when its process exits and drops its kept tools when the server says they changed.
 */
export const openSession = (
  prepared: PreparedServer,
  scrub: (text: string) => string
): Effect.Effect<McpSession, ToolServerFailed> =>
  Effect.suspend(() => {
    const entry = prepared.entry
    const probe = entry.type === "mcp" ? new HttpProbe(entry.requestId, true) : undefined
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
    const session: McpSession = {
      client,
      probe,
      closed: false,
      broken: false,
      sent: 0,
      tools: undefined,
      changes: 0,
      idleSince: 0
    }
    client.onclose = () => {
      session.closed = true
    }
    countSends(transport, session)
    const spawned = processOf(transport)
    client.setNotificationHandler("notifications/tools/list_changed", () => dropListing(session))
    client.onerror = () => dropListing(session)
    const limit = entry.connectTimeoutMs ?? toolServerLimits.connectMs
    // The SDK's own timer and the effect's bound the opening alike: whichever ends it first, it ends the same way.
    const late = () => serverFailed(entry.name, "unreachable", `It did not open within ${limit / 1000} seconds.`, scrub)
    const failed = failureOf(prepared, scrub, probe)
    return Effect.tryPromise({
      try: () => client.connect(transport, { timeout: limit }),
      catch: (error) =>
        error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout && probe?.unreachable === undefined
          ? late()
          : failed(error)
    }).pipe(
      Effect.timeoutFail({ duration: Duration.millis(limit), onTimeout: late }),
      Effect.onError(() => Effect.promise(() => abandon(client, spawned()))),
      Effect.as(session)
    )
  })

/**
 * The id of the process a transport started, kept as it starts: the SDK forgets it as soon as it begins to close,
 * which it does itself when its own timer ends the opening.
 */
const processOf = (transport: Transport): (() => number | undefined) => {
  let pid: number | undefined
  if (transport instanceof StdioClientTransport) {
    const start = transport.start.bind(transport)
    transport.start = () =>
      start().finally(() => {
        pid = transport.pid ?? undefined
      })
  }
  return () => pid
}

/**
 * Gives up a session that did not open: its process is killed at once. The SDK's close ends its input and signals
 * it only 2 s later, on timers that do not keep the runtime alive, so a server that never answered outlived a
 * runtime ended meanwhile.
 */
const abandon = (client: Client, pid: number | undefined): Promise<void> => {
  if (pid !== undefined)
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // It has exited already.
    }
  return client.close().catch(() => undefined)
}

/** Counts on the session each message its client hands the transport, before the transport sends it. */
const countSends = (transport: Transport, session: McpSession): void => {
  const send = transport.send.bind(transport)
  transport.send = (message, options) => {
    session.sent++
    return send(message, options)
  }
}

/** How long ending a session over HTTP may wait for the server to take its end (a `DELETE`). */
const endingLimit = Duration.seconds(2)

/**
 * Closes a session: over HTTP, tells the server the session ended (within 2 s, whatever it answers); a process is
 * stopped.
 */
export const closeSession = (session: McpSession): Effect.Effect<void> =>
  Effect.suspend(() => {
    session.closed = true
    const transport = session.client.transport
    const ending =
      transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined
        ? Effect.promise(() => transport.terminateSession().catch(() => undefined)).pipe(
            Effect.timeout(endingLimit),
            Effect.ignore
          )
        : Effect.void
    return Effect.zipRight(
      ending,
      Effect.promise(() => session.client.close().catch(() => undefined))
    )
  })
