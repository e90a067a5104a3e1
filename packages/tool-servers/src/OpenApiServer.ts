import { readFile } from "node:fs/promises"
import {
  type ListedTool,
  type ToolAnswer,
  type ToolCall,
  ToolCallFailed,
  type ToolServerFailed,
  toolServerLimits
} from "@runledger/core"
import { Effect } from "effect"
import { parse } from "yaml"
import { HttpProbe } from "./HttpProbe.js"
import { type OpenApiOperation, openApiOperations } from "./openApiTools.js"
import type { PreparedServer } from "./PreparedServer.js"
import { failureOfStatus, messageOf, serverFailed } from "./serverFailure.js"

/** The most bytes an HTTP API's answer may hold (16 MiB, as an MCP server's over HTTP). */
const answerCap = 16 * 1_048_576

/** An HTTP API described by an OpenAPI document: its tools from the document, its calls over HTTP. */
export interface OpenApiServer {
  readonly list: Effect.Effect<ReadonlyArray<ListedTool>, ToolServerFailed>
  readonly call: (call: ToolCall) => Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed>
}

/** The document's text: given whole, read from a file, or fetched from its address. */
const documentText = async (prepared: PreparedServer): Promise<{ text: string; base: string | undefined }> => {
  const entry = prepared.entry
  if (entry.type !== "openapi") throw new Error("not an HTTP API")
  if (entry.documentText !== undefined) return { text: entry.documentText, base: undefined }
  if (entry.document === undefined) throw new Error("The entry names no document and holds none.")
  if (/^https?:\/\//.test(entry.document)) {
    const response = await fetch(entry.document, { headers: prepared.headers })
    if (!response.ok) throw new Error(`Reading the document answered HTTP ${response.status}.`)
    return { text: await response.text(), base: entry.document }
  }
  return { text: await readFile(entry.document, "utf8"), base: undefined }
}

/**
 * An HTTP API's server. Its document is read once, when first needed, and kept; it is the API's list of tools, so
 * listing never asks the API. A call sends the path and query parameters and `body` as JSON, with the entry's
 * headers and query parameters; a 401, 403 or 429 is the server refusing (nothing reached the operation), another
 * 4xx the tool's own error, a 5xx the server failing on the call.
 */
export const makeOpenApiServer = (
  prepared: PreparedServer,
  scrub: (text: string) => string
): Effect.Effect<OpenApiServer> =>
  Effect.gen(function* () {
    const name = prepared.entry.name
    const load = yield* Effect.cached(
      Effect.tryPromise({
        try: async () => {
          const { text, base } = await documentText(prepared)
          const document = parse(text)
          const operations = openApiOperations(prepared.entry, document)
          if (operations.length === 0) throw new Error("Its OpenAPI document offers no operation.")
          const server = prepared.url ?? document.servers?.[0]?.url
          if (server === undefined) throw new Error("Neither the entry nor the document names where calls go.")
          return { operations, baseUrl: new URL(server, base).toString() }
        },
        catch: (error) => serverFailed(name, "failing", messageOf(error), scrub)
      })
    )
    const list = Effect.map(load, ({ operations }) =>
      operations.map(({ tool }) => JSON.parse(scrub(JSON.stringify(tool))) as ListedTool)
    )
    const call = (call: ToolCall) =>
      Effect.flatMap(load, ({ operations, baseUrl }) => {
        const operation = operations.find((candidate) => candidate.tool.name === call.tool)
        if (operation === undefined)
          return Effect.fail(serverFailed(name, "failing", `Its document has no operation ${call.tool}.`, scrub))
        return send(prepared, scrub, baseUrl, operation, call)
      })
    return { list, call }
  })

/** The address of one call: the path's parameters in place, the query's and the entry's added. */
const addressOf = (
  baseUrl: string,
  operation: OpenApiOperation,
  args: Record<string, unknown>,
  entryQuery: Record<string, string>
) => {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, param: string) =>
    encodeURIComponent(String(args[param] ?? ""))
  )
  const url = new URL(baseUrl.replace(/\/?$/, "/") + path.replace(/^\//, ""))
  for (const [param, value] of Object.entries(entryQuery)) url.searchParams.set(param, value)
  for (const param of operation.queryParams) {
    const value = args[param]
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value])
      url.searchParams.append(param, typeof item === "string" ? item : JSON.stringify(item))
  }
  return url
}

const send = (
  prepared: PreparedServer,
  scrub: (text: string) => string,
  baseUrl: string,
  operation: OpenApiOperation,
  call: ToolCall
): Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed> => {
  const limit = call.timeoutMs ?? toolServerLimits.callMs
  const probe = new HttpProbe(prepared.entry.requestId)
  const started = Date.now()
  const failed = (because: ToolCallFailed["because"], detail: string) =>
    new ToolCallFailed({
      because,
      detail: scrub(detail),
      durationMs: Date.now() - started,
      jsonrpcId: null,
      ...(probe.serverRequestId === undefined ? {} : { serverRequestId: probe.serverRequestId }),
      ...(probe.retryAfterMs === undefined ? {} : { retryAfterMs: probe.retryAfterMs })
    })
  return Effect.tryPromise({
    try: async (signal) => {
      const body = call.arguments.body
      const response = await probe.fetch(addressOf(baseUrl, operation, call.arguments, prepared.queryParams), {
        method: operation.method,
        headers: {
          accept: "application/json",
          ...(operation.takesBody && body !== undefined ? { "content-type": "application/json" } : {}),
          ...prepared.headers
        },
        ...(operation.takesBody && body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.any([signal, AbortSignal.timeout(limit)])
      })
      const text = await response.text()
      return { status: response.status, text }
    },
    catch: (error) =>
      probe.unreachable !== undefined
        ? serverFailed(prepared.entry.name, "unreachable", messageOf(probe.unreachable), scrub)
        : error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
          ? failed("timed_out", `The API did not answer within ${limit / 1000} seconds.`)
          : failed("server_failure", messageOf(error))
  }).pipe(
    Effect.flatMap(({ status, text }): Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed> => {
      if ([401, 403, 429].includes(status))
        return Effect.fail(
          serverFailed(
            prepared.entry.name,
            failureOfStatus(status),
            `HTTP ${status}. ${text}`,
            scrub,
            probe.retryAfterMs
          )
        )
      if (status >= 500) return Effect.fail(failed("server_failure", `The API answered HTTP ${status}: ${text}`))
      if (Buffer.byteLength(text) > answerCap)
        return Effect.fail(failed("too_large", `The API's answer held more than ${answerCap / 1_048_576} MiB.`))
      const scrubbed = scrub(text)
      const parsed = parseJson(scrubbed)
      return Effect.succeed({
        content: [{ type: "text", text: scrubbed }],
        ...(parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
          ? { structuredContent: parsed as Record<string, unknown> }
          : {}),
        isError: status >= 400,
        durationMs: Date.now() - started,
        jsonrpcId: null,
        ...(probe.serverRequestId === undefined ? {} : { serverRequestId: probe.serverRequestId })
      })
    })
  )
}

/** A text parsed as JSON, or undefined when it is not JSON. */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
