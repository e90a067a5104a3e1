import { HttpClientRequest } from "@effect/platform"
import type {
  FinishReason,
  ListedModel,
  ModelAnswer,
  ModelCallFailed,
  ModelMessage,
  ModelProviderEntry,
  ModelRequest
} from "@runledger/core"
import { Either } from "effect"
import { answerBody } from "./answerBody.js"
import { answerProvenance } from "./answerProvenance.js"
import { unreadable } from "./failureOf.js"
import { postJson } from "./postJson.js"
import { providerAddress } from "./providerAddress.js"
import type { ProviderResponse } from "./sendRequest.js"
import { tokenCount } from "./tokenCount.js"

/** The base address of Anthropic's own API, for an entry without one. */
const anthropicBase = "https://api.anthropic.com"

/** The API version every request names. */
const apiVersion = "2023-06-01"

/**
 * The tool a JSON answer is asked through (function-formats.md §2.4, "a forced json tool"): its input is the
 * answer. Model-facing names of real tools start with `mcp__`, so it cannot meet one.
 */
export const answerTool = "json_answer"

const headersOf = (provider: ModelProviderEntry): Record<string, string> => ({
  ...provider.headers,
  "anthropic-version": apiVersion,
  ...(provider.apiKey === undefined ? {} : { "x-api-key": provider.apiKey })
})

const addressOf = (provider: ModelProviderEntry, path: string) => providerAddress(provider, anthropicBase, path)

type Block = Record<string, unknown>

/** The conversation as Anthropic takes it: tool results go in user turns, consecutive turns of a role joined. */
const messagesOf = (messages: ReadonlyArray<ModelMessage>) => {
  const turns: Array<{ role: "user" | "assistant"; content: Array<Block> }> = []
  const push = (role: "user" | "assistant", blocks: ReadonlyArray<Block>) => {
    const last = turns[turns.length - 1]
    if (last !== undefined && last.role === role) last.content.push(...blocks)
    else turns.push({ role, content: [...blocks] })
  }
  for (const message of messages) {
    switch (message.role) {
      case "user":
        push("user", [{ type: "text", text: message.text }])
        break
      case "assistant":
        push("assistant", [
          ...(message.text === "" ? [] : [{ type: "text", text: message.text }]),
          ...message.toolCalls.map((call) => ({
            type: "tool_use",
            id: call.id,
            name: call.name,
            input: typeof call.arguments === "object" && call.arguments !== null ? call.arguments : {}
          }))
        ])
        break
      case "tool":
        push("user", [
          { type: "tool_result", tool_use_id: message.callId, content: message.text, is_error: message.isError }
        ])
        break
    }
  }
  return turns
}

/** The tools of a request, with the answer tool when JSON is asked; it is forced when no other tool is offered. */
const toolsOf = (request: ModelRequest) => {
  const tools = request.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema
  }))
  if (request.output.format !== "json") return tools.length === 0 ? {} : { tools }
  const answer = {
    name: answerTool,
    description: "Give your final answer as this tool's input, which must match its schema.",
    input_schema: request.output.schema as Record<string, unknown>
  }
  return {
    tools: [...tools, answer],
    tool_choice: tools.length === 0 ? { type: "tool", name: answerTool } : { type: "auto" }
  }
}

/** Anthropic's `thinking` from the `anthropic` namespace's (`type`, `budgetTokens`, `display`). */
const thinkingOf = (request: ModelRequest) => {
  const thinking = request.providerOptions?.thinking as
    | { readonly type?: unknown; readonly budgetTokens?: unknown; readonly display?: unknown }
    | undefined
  if (thinking === undefined) return {}
  return {
    thinking: {
      type: thinking.type,
      ...(thinking.budgetTokens === undefined ? {} : { budget_tokens: thinking.budgetTokens }),
      ...(thinking.display === undefined ? {} : { display: thinking.display })
    }
  }
}

/** The body of a Messages request (Anthropic "Create a Message"). */
export const messagesBody = (request: ModelRequest) => {
  const { settings } = request
  return {
    model: request.model,
    max_tokens: settings.maxOutputTokens,
    ...(request.system === undefined ? {} : { system: request.system }),
    messages: messagesOf(request.messages),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.topP === undefined ? {} : { top_p: settings.topP }),
    ...(settings.stopSequences === undefined ? {} : { stop_sequences: settings.stopSequences }),
    ...toolsOf(request),
    ...thinkingOf(request)
  }
}

const finishReasons: Readonly<Record<string, FinishReason>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
  refusal: "content_filter"
}

interface MessageAnswer {
  readonly id?: string
  readonly model?: string
  readonly stop_reason?: string | null
  readonly content?: ReadonlyArray<{
    readonly type?: string
    readonly text?: string
    readonly id?: string
    readonly name?: string
    readonly input?: unknown
  }>
  readonly usage?: {
    readonly input_tokens?: number
    readonly output_tokens?: number
    readonly cache_read_input_tokens?: number | null
    readonly cache_creation_input_tokens?: number | null
  }
}

/** Reads a Messages answer; a call of the answer tool is the JSON answer, given as its text. */
export const messagesAnswer = (
  response: ProviderResponse,
  request: ModelRequest
): Either.Either<ModelAnswer, ModelCallFailed> => {
  const read = answerBody<MessageAnswer>(response)
  if (Either.isLeft(read)) return Either.left(read.left)
  const body = read.right
  if (!Array.isArray(body.content)) return Either.left(unreadable("it holds no content"))
  const uses = body.content.filter((block) => block.type === "tool_use")
  const answered = uses.find((block) => block.name === answerTool)
  const text =
    answered === undefined
      ? body.content
          .filter((block) => block.type === "text")
          .map((block) => block.text ?? "")
          .join("")
      : JSON.stringify(answered.input ?? null)
  const raw = body.stop_reason ?? null
  const usage = body.usage ?? {}
  const uncached = tokenCount(usage.input_tokens)
  const cacheRead = tokenCount(usage.cache_read_input_tokens)
  const cacheWrite = tokenCount(usage.cache_creation_input_tokens)
  const output = tokenCount(usage.output_tokens)
  const total = uncached === null || output === null ? null : uncached + (cacheRead ?? 0) + (cacheWrite ?? 0) + output
  return Either.right({
    text,
    toolCalls:
      answered === undefined
        ? uses.map((block, index) => ({
            id: block.id ?? `toolu_${index + 1}`,
            name: block.name ?? "",
            arguments: block.input ?? {}
          }))
        : [],
    finishReason: answered !== undefined ? "stop" : raw === null ? "other" : (finishReasons[raw] ?? "other"),
    rawFinishReason: raw,
    usage: { input: { uncached, cacheRead, cacheWrite }, output: { text: output, reasoning: null }, total },
    ...answerProvenance(body, request, response)
  })
}

/** A Messages request. */
export const messagesRequest = (request: ModelRequest) =>
  postJson(addressOf(request.provider, "/v1/messages"), headersOf(request.provider), messagesBody(request))

/** The request that lists one page of Anthropic's models, after the id of the last one read. */
export const modelsPageRequest = (provider: ModelProviderEntry, after: string | undefined) =>
  HttpClientRequest.get(addressOf(provider, "/v1/models")).pipe(
    HttpClientRequest.setHeaders(headersOf(provider)),
    HttpClientRequest.setUrlParams({ limit: "1000", ...(after === undefined ? {} : { after_id: after }) })
  )

/** Reads one page of `GET /v1/models`: the models, and the id to read on from when there are more. */
export const modelsPage = (
  text: string
): Either.Either<{ readonly models: ReadonlyArray<ListedModel>; readonly next?: string }, string> => {
  try {
    const body = JSON.parse(text) as {
      data?: ReadonlyArray<{ id?: unknown; display_name?: unknown; created_at?: unknown }>
      has_more?: boolean
      last_id?: string | null
    }
    if (!Array.isArray(body.data)) return Either.left("the list holds no data")
    const models = body.data.flatMap((model) => {
      if (typeof model.id !== "string") return []
      const created = typeof model.created_at === "string" ? Date.parse(model.created_at) : Number.NaN
      return [
        {
          id: model.id,
          ...(typeof model.display_name === "string" ? { name: model.display_name } : {}),
          ...(Number.isNaN(created) ? {} : { created: Math.floor(created / 1000) })
        }
      ]
    })
    return Either.right({
      models,
      ...(body.has_more === true && typeof body.last_id === "string" ? { next: body.last_id } : {})
    })
  } catch {
    return Either.left("the list is not JSON")
  }
}
