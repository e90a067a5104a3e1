/** A model a provider entry declares, for a provider that lists nothing or to add what it reports. */
export interface DeclaredModel {
  /** The provider's id of the model, as a definition writes it after the provider prefix. */
  readonly id: string
  readonly name?: string
  readonly contextWindow?: number
  readonly maxTokens?: number
  /** When the provider released it, in seconds since 1970. */
  readonly created?: number
}

/**
 * One model provider the operator set up, named by the prefix a definition writes before its model
 * (`house/fast-model`): the HTTP API it speaks (OpenAI-compatible chat completions, or Anthropic Messages), where it
 * is and its key. A gateway is an `openai` entry with a name of its own.
 */
export interface ModelProviderEntry {
  /** The prefix: 1 to 32 lowercase letters, digits or hyphens, starting with a letter. */
  readonly name: string
  readonly api: "openai" | "anthropic"
  /** The API's base address, such as `https://api.openai.com/v1`; the provider's own when absent. */
  readonly baseUrl?: string
  readonly apiKey?: string
  /** Headers sent with every request (never recorded nor answered). */
  readonly headers?: Readonly<Record<string, string>>
  /** The response header in which the gateway answers what a call cost, in US dollars. */
  readonly costHeader?: string
  /** Whether the provider's own words about a failure may reach the caller. */
  readonly exposeProviderMessages?: boolean
  /** Whether the gateway takes `response_format: json_schema` (else `json_object`, the schema checked by the runtime). */
  readonly structuredOutputs?: boolean
  /** The top-level body fields a function may set for this gateway under `provider_options.<name>`. */
  readonly allowedProviderOptions?: ReadonlyArray<string>
  /** Whether the provider lists its models (`GET /models`); true when absent. */
  readonly lists?: boolean
  /** Models it declares beside (or in place of) what it lists. */
  readonly models?: ReadonlyArray<DeclaredModel>
}

/**
 * The model settings of a runtime: its providers, the aliases its operator named (`house/fast` →
 * `gateway/anthropic/claude-haiku-4-5`, or a wildcard `openai/*` → `gateway/openai/*`) and the allow list
 * (`allowed_models`, exact references or `prefix/*`), which narrows what runs and what `list_models` shows.
 */
export interface ModelSettings {
  readonly providers: ReadonlyArray<ModelProviderEntry>
  readonly aliases?: Readonly<Record<string, string>>
  readonly allowedModels?: ReadonlyArray<string>
  /** The input tokens a run's model calls may use together before its final step (REASONING_MAX_INPUT_TOKENS). */
  readonly maxInputTokens?: number
  /**
   * The longest gap between two facts of a live reasoning run, in ms (decision F3), default 10 minutes: a started
   * run whose last fact is newer is taken (`conflict`, kind `taken`), an older one is resumed.
   */
  readonly longestGapMs?: number
}
