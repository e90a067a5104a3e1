import { Context, Data, type Effect } from "effect"
import type { ModelProviderEntry } from "../models/ModelSettings.js"

/** A tool call the model asked for: the provider's id of the call, the tool's model-facing name, its arguments. */
export interface ModelToolCall {
  readonly id: string
  readonly name: string
  /** The arguments as the model wrote them: parsed JSON, or the text when it is not JSON. */
  readonly arguments: unknown
}

/** One message of a conversation with a model: the user's words, the model's turn, or a tool's result. */
export type ModelMessage =
  | { readonly role: "user"; readonly text: string }
  | { readonly role: "assistant"; readonly text: string; readonly toolCalls: ReadonlyArray<ModelToolCall> }
  | { readonly role: "tool"; readonly callId: string; readonly text: string; readonly isError: boolean }

/** A tool offered to a model: its model-facing name, its description and the JSON Schema of its arguments. */
export interface ModelTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: Record<string, unknown>
}

/** The settings of one call, as the function's `config` gives them (function-formats.md §2.1). */
export interface ModelCallSettings {
  readonly maxOutputTokens: number
  readonly temperature?: number
  readonly topP?: number
  readonly seed?: number
  readonly stopSequences?: ReadonlyArray<string>
  readonly reasoning?: "none" | "minimal" | "low" | "medium" | "high" | "xhigh"
}

/** One request to a model: the provider's entry, the provider's model id, the conversation, the output mode. */
export interface ModelRequest {
  readonly provider: ModelProviderEntry
  readonly model: string
  readonly system?: string
  readonly messages: ReadonlyArray<ModelMessage>
  readonly settings: ModelCallSettings
  /** `json` asks for a value of the schema in the provider's native way. */
  readonly output: { readonly format: "text" } | { readonly format: "json"; readonly schema: unknown }
  readonly tools: ReadonlyArray<ModelTool>
  /**
   * The function's `provider_options` of the namespace this provider reads (function-formats.md §2.5), keys as the
   * document writes them; the provider maps them onto its API.
   */
  readonly providerOptions?: Readonly<Record<string, unknown>>
  /** How long this request may take, in milliseconds. */
  readonly timeoutMs: number
}

/** Why a model stopped, in the runtime's words (function-formats.md §2.7). */
export type FinishReason = "stop" | "length" | "content_filter" | "tool_calls" | "error" | "other"

/** The tokens one call used; null where the provider does not say. */
export interface ModelUsage {
  readonly input: {
    readonly uncached: number | null
    readonly cacheRead: number | null
    readonly cacheWrite: number | null
  }
  readonly output: { readonly text: number | null; readonly reasoning: number | null }
  readonly total: number | null
}

/** A model's answer to one request. */
export interface ModelAnswer {
  /** The text it answered ("" when it only asked for tools); for a JSON answer, the JSON text. */
  readonly text: string
  readonly toolCalls: ReadonlyArray<ModelToolCall>
  readonly finishReason: FinishReason
  readonly rawFinishReason: string | null
  readonly usage: ModelUsage
  readonly responseId: string | null
  /** The model the provider says answered. */
  readonly model: string
  /** What the call cost in US dollars, from the entry's `cost_header`; absent when it names none or none came. */
  readonly costUsd?: number
}

/** The kinds of a failed model call a provider can cause (function-formats.md §2.8). */
export type ModelFailureKind =
  | "definition_invalid"
  | "provider_not_configured"
  | "credentials_rejected"
  | "rate_limited"
  | "provider_unavailable"
  | "content_refused"
  | "timed_out"

/**
 * A request that got no answer: its kind, the HTTP status where there was one, the delay the provider asked for,
 * and the provider's own words (for the operator's log; the caller sees them only where the entry allows).
 */
export class ModelCallFailed extends Data.TaggedError("ModelCallFailed")<{
  readonly kind: ModelFailureKind
  readonly status?: number
  readonly retryAfterMs?: number
  readonly providerMessage: string
}> {}

/** A model a provider lists: its id and what the provider reports of it. */
export interface ListedModel {
  readonly id: string
  readonly name?: string
  /** When the provider released or added it, in seconds since 1970. */
  readonly created?: number
  readonly contextWindow?: number
  readonly maxTokens?: number
}

/** A provider's list of models could not be read; `detail` is for the operator's log. */
export class ModelListFailed extends Data.TaggedError("ModelListFailed")<{ readonly detail: string }> {}

/**
 * Model calls for reasoning functions (architecture.md, Ports): one HTTP request per `call`, to the provider the
 * request's entry describes, and the provider's list of models. Retries, deadlines across attempts, aliases and
 * the allow list are the core's.
 */
export class ModelProvider extends Context.Tag("@runledger/core/ModelProvider")<
  ModelProvider,
  {
    readonly call: (request: ModelRequest) => Effect.Effect<ModelAnswer, ModelCallFailed>
    readonly list: (provider: ModelProviderEntry) => Effect.Effect<ReadonlyArray<ListedModel>, ModelListFailed>
  }
>() {}
