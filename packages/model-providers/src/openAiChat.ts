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

/** The base address of OpenAI's own API, for an `openai` entry without one. */
const openAiBase = "https://api.openai.com/v1"

/** The headers of every request to an OpenAI-compatible API: the entry's, and its key as a bearer token. */
const headersOf = (provider: ModelProviderEntry): Record<string, string> => ({
  ...provider.headers,
  ...(provider.apiKey === undefined ? {} : { authorization: `Bearer ${provider.apiKey}` })
})

/** The address of a path of an OpenAI-compatible API. */
const addressOf = (provider: ModelProviderEntry, path: string) => providerAddress(provider, openAiBase, path)

const messagesOf = (system: string | undefined, messages: ReadonlyArray<ModelMessage>) => [
  ...(system === undefined ? [] : [{ role: "system", content: system }]),
  ...messages.map((message) => {
    switch (message.role) {
      case "user":
        return { role: "user", content: message.text }
      case "assistant":
        return {
          role: "assistant",
          content: message.text === "" ? null : message.text,
          ...(message.toolCalls.length === 0
            ? {}
            : {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: {
                    name: call.name,
                    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments)
                  }
                }))
              })
        }
      default:
        return { role: "tool", tool_call_id: message.callId, content: message.text }
    }
  })
]

/** How JSON is asked of an OpenAI-compatible API: a strict-less `json_schema` where it takes one, else `json_object`. */
const responseFormatOf = (request: ModelRequest) => {
  if (request.output.format !== "json") return {}
  const structured = request.provider.structuredOutputs ?? request.provider.name === "openai"
  return structured
    ? { response_format: { type: "json_schema", json_schema: { name: "answer", schema: request.output.schema } } }
    : { response_format: { type: "json_object" } }
}

/** The names OpenAI's chat completions give the options of the `openai` namespace it takes. */
const openAiOptionFields: Readonly<Record<string, string>> = { textVerbosity: "verbosity", logitBias: "logit_bias" }

/**
 * The body fields of a request's provider options: a gateway's as written (its entry allowed them), OpenAI's under
 * their API names; `reasoningMode` has no chat completions field and is not sent.
 */
const optionFields = (request: ModelRequest): Record<string, unknown> => {
  const options = request.providerOptions ?? {}
  if (request.provider.name !== "openai") return { ...options }
  return Object.fromEntries(
    Object.entries(options).flatMap(([key, value]) =>
      openAiOptionFields[key] === undefined ? [] : [[openAiOptionFields[key], value]]
    )
  )
}

/** The body of a chat completion request (OpenAI "Create chat completion"). */
export const chatBody = (request: ModelRequest) => {
  const { settings } = request
  return {
    ...optionFields(request),
    model: request.model,
    messages: messagesOf(request.system, request.messages),
    max_tokens: settings.maxOutputTokens,
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.topP === undefined ? {} : { top_p: settings.topP }),
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    ...(settings.stopSequences === undefined ? {} : { stop: settings.stopSequences }),
    ...(settings.reasoning === undefined || settings.reasoning === "none"
      ? {}
      : { reasoning_effort: settings.reasoning === "xhigh" ? "high" : settings.reasoning }),
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: "function",
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema }
          }))
        }),
    ...responseFormatOf(request)
  }
}

const finishReasons: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  content_filter: "content_filter",
  tool_calls: "tool_calls",
  function_call: "tool_calls"
}

const parsedArguments = (text: unknown): unknown => {
  if (typeof text !== "string") return text ?? {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

interface ChatCompletion {
  readonly id?: string
  readonly model?: string
  readonly choices?: ReadonlyArray<{
    readonly finish_reason?: string | null
    readonly message?: {
      readonly content?: string | null
      readonly refusal?: string | null
      readonly tool_calls?: ReadonlyArray<{ id?: string; function?: { name?: string; arguments?: unknown } }>
    }
  }>
  readonly usage?: {
    readonly prompt_tokens?: number
    readonly completion_tokens?: number
    readonly total_tokens?: number
    readonly prompt_tokens_details?: { readonly cached_tokens?: number }
    readonly completion_tokens_details?: { readonly reasoning_tokens?: number }
  }
}

/** Reads a chat completion answer; a 2xx body that is not one is `provider_unavailable`. */
export const chatAnswer = (
  response: ProviderResponse,
  request: ModelRequest
): Either.Either<ModelAnswer, ModelCallFailed> => {
  const read = answerBody<ChatCompletion>(response)
  if (Either.isLeft(read)) return Either.left(read.left)
  const body = read.right
  const choice = body.choices?.[0]
  if (choice?.message === undefined) return Either.left(unreadable("it holds no choice"))
  const raw = choice.finish_reason ?? null
  const usage = body.usage ?? {}
  const input = tokenCount(usage.prompt_tokens)
  const cached = tokenCount(usage.prompt_tokens_details?.cached_tokens)
  const output = tokenCount(usage.completion_tokens)
  const reasoning = tokenCount(usage.completion_tokens_details?.reasoning_tokens)
  return Either.right({
    text: choice.message.content ?? choice.message.refusal ?? "",
    toolCalls: (choice.message.tool_calls ?? []).map((call, index) => ({
      id: call.id ?? `call_${index + 1}`,
      name: call.function?.name ?? "",
      arguments: parsedArguments(call.function?.arguments)
    })),
    finishReason: raw === null ? "other" : (finishReasons[raw] ?? "other"),
    rawFinishReason: raw,
    usage: {
      input: { uncached: input === null ? null : input - (cached ?? 0), cacheRead: cached, cacheWrite: null },
      output: { text: output === null ? null : output - (reasoning ?? 0), reasoning },
      total: tokenCount(usage.total_tokens)
    },
    ...answerProvenance(body, request, response)
  })
}

/** A chat completion request to an OpenAI-compatible API. */
export const chatRequest = (request: ModelRequest) =>
  postJson(addressOf(request.provider, "/chat/completions"), headersOf(request.provider), chatBody(request))

/** The request that lists an OpenAI-compatible API's models. */
export const modelsRequest = (provider: ModelProviderEntry) =>
  HttpClientRequest.get(addressOf(provider, "/models")).pipe(HttpClientRequest.setHeaders(headersOf(provider)))

/** Reads `GET /models`: `{ data: [{ id, created }] }`. */
export const listedModels = (text: string): Either.Either<ReadonlyArray<ListedModel>, string> => {
  try {
    const body = JSON.parse(text) as { data?: ReadonlyArray<{ id?: unknown; created?: unknown }> }
    if (!Array.isArray(body.data)) return Either.left("the list holds no data")
    return Either.right(
      body.data.flatMap((model) =>
        typeof model.id === "string"
          ? [{ id: model.id, ...(typeof model.created === "number" ? { created: model.created } : {}) }]
          : []
      )
    )
  } catch {
    return Either.left("the list is not JSON")
  }
}
