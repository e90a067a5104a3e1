import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

/** One answer the scripted model gives, in order: an HTTP status, headers and a JSON body. */
export interface ScriptedReply {
  readonly status?: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: unknown
  /** Holds the answer: `reached` is called when a call takes this reply, which is answered once `until` settles. */
  readonly hold?: { readonly reached: () => void; readonly until: Promise<unknown> }
}

/** A request the scripted model received. */
export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: any
}

/**
 * A scripted model served over real HTTP on 127.0.0.1, speaking OpenAI-compatible chat completions
 * (`POST /v1/chat/completions`, `GET /v1/models`) or Anthropic Messages (`POST /v1/messages`, `GET /v1/models`).
 * Each model call takes the next scripted reply; a call with none left answers 500. Every request is kept.
 */
export const startScriptedModel = async (api: "openai" | "anthropic") => {
  const replies: Array<ScriptedReply> = []
  const received: Array<ReceivedRequest> = []
  let listing: ScriptedReply = { body: { object: "list", data: [] } }
  const callPath = api === "openai" ? "/v1/chat/completions" : "/v1/messages"
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", async () => {
      const text = Buffer.concat(chunks).toString("utf8")
      const path = (request.url ?? "/").split("?")[0]!
      received.push({
        method: request.method ?? "GET",
        path: request.url ?? "/",
        headers: request.headers,
        body: text === "" ? undefined : JSON.parse(text)
      })
      const reply =
        request.method === "GET" && path === "/v1/models"
          ? listing
          : request.method === "POST" && path === callPath
            ? (replies.shift() ?? { status: 500, body: { error: { message: "no reply scripted" } } })
            : { status: 404, body: { error: { message: `no route ${path}` } } }
      if (reply.hold !== undefined) {
        reply.hold.reached()
        await reply.hold.until
      }
      response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers })
      response.end(JSON.stringify(reply.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    /** The base address an entry names: `/v1` for OpenAI-compatible, the origin for Anthropic. */
    baseUrl: api === "openai" ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`,
    /** Adds replies the next model calls take, in order. */
    script: (...next: ReadonlyArray<ScriptedReply>) => {
      replies.push(...next)
    },
    /** Sets the answer of the model list. */
    list: (reply: ScriptedReply) => {
      listing = reply
    },
    received,
    /** The model calls received, their bodies in order. */
    calls: () => received.filter((request) => request.method === "POST").map((request) => request.body),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type ScriptedModel = Awaited<ReturnType<typeof startScriptedModel>>

/** A reply held until released: `reached` settles when a model call takes it. */
export const heldReply = (reply: ScriptedReply) => {
  let reached = () => {}
  let release = () => {}
  const arrived = new Promise<void>((resolve) => {
    reached = resolve
  })
  const until = new Promise<void>((resolve) => {
    release = resolve
  })
  return { reply: { ...reply, hold: { reached: () => reached(), until } }, reached: arrived, release: () => release() }
}

/** A chat completion answering text, with its usage. */
export const openAiText = (text: string, more: { finish?: string; model?: string } = {}): ScriptedReply => ({
  body: {
    id: "chatcmpl-1",
    object: "chat.completion",
    model: more.model ?? "scripted-1",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: more.finish ?? "stop" }],
    usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17, prompt_tokens_details: { cached_tokens: 2 } }
  }
})

/** A chat completion asking for tool calls. */
export const openAiToolCalls = (
  calls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: unknown }>
): ScriptedReply => ({
  body: {
    id: "chatcmpl-2",
    object: "chat.completion",
    model: "scripted-1",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) }
          }))
        },
        finish_reason: "tool_calls"
      }
    ],
    usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 }
  }
})

/** A Messages answer of text. */
export const anthropicText = (text: string, more: { stop?: string } = {}): ScriptedReply => ({
  body: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-scripted",
    content: [{ type: "text", text }],
    stop_reason: more.stop ?? "end_turn",
    usage: { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 3, cache_creation_input_tokens: 0 }
  }
})

/** A Messages answer calling tools (the JSON answer tool among them). */
export const anthropicToolUse = (
  uses: ReadonlyArray<{ readonly id: string; readonly name: string; readonly input: unknown }>
): ScriptedReply => ({
  body: {
    id: "msg_2",
    type: "message",
    role: "assistant",
    model: "claude-scripted",
    content: uses.map((use) => ({ type: "tool_use", ...use })),
    stop_reason: "tool_use",
    usage: { input_tokens: 15, output_tokens: 6 }
  }
})
