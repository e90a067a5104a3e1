import type { ModelProviderEntry, ModelSettings } from "@runledger/core"

/** One provider as the settings file writes it. */
interface ProviderFile {
  readonly name: string
  readonly api: "openai" | "anthropic"
  readonly base_url?: string
  readonly api_key?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly cost_header?: string
  readonly expose_provider_messages?: boolean
  readonly structured_outputs?: boolean
  readonly allowed_provider_options?: ReadonlyArray<string>
  readonly lists?: boolean
  readonly models?: ReadonlyArray<{
    readonly id: string
    readonly name?: string
    readonly context_window?: number
    readonly max_tokens?: number
    readonly created?: number
  }>
}

/** The `models` block of the settings file: providers, aliases and the allow list. */
export interface ModelsFile {
  readonly providers?: ReadonlyArray<ProviderFile>
  readonly aliases?: Readonly<Record<string, string>>
  readonly allowed_models?: ReadonlyArray<string>
}

/** A text with its `${VAR}` references read from the environment; a reference to an unset variable stops the start. */
const filled = (text: string, env: NodeJS.ProcessEnv): string =>
  text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name]
    if (value === undefined) throw new Error(`The model settings name \${${name}}, which the environment does not set.`)
    return value
  })

const providerOf = (provider: ProviderFile, env: NodeJS.ProcessEnv): ModelProviderEntry => {
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(provider.name))
    throw new Error(`A model provider's name is 1 to 32 lowercase letters, digits or hyphens, not ${provider.name}.`)
  if (provider.api !== "openai" && provider.api !== "anthropic")
    throw new Error(
      `The model provider ${provider.name} names the api openai or anthropic, not ${String(provider.api)}.`
    )
  return {
    name: provider.name,
    api: provider.api,
    ...(provider.base_url === undefined ? {} : { baseUrl: filled(provider.base_url, env) }),
    ...(provider.api_key === undefined ? {} : { apiKey: filled(provider.api_key, env) }),
    ...(provider.headers === undefined
      ? {}
      : {
          headers: Object.fromEntries(Object.entries(provider.headers).map(([key, value]) => [key, filled(value, env)]))
        }),
    ...(provider.cost_header === undefined ? {} : { costHeader: provider.cost_header }),
    ...(provider.expose_provider_messages === undefined
      ? {}
      : { exposeProviderMessages: provider.expose_provider_messages }),
    ...(provider.structured_outputs === undefined ? {} : { structuredOutputs: provider.structured_outputs }),
    ...(provider.allowed_provider_options === undefined
      ? {}
      : { allowedProviderOptions: provider.allowed_provider_options }),
    ...(provider.lists === undefined ? {} : { lists: provider.lists }),
    ...(provider.models === undefined
      ? {}
      : {
          models: provider.models.map((model) => ({
            id: model.id,
            ...(model.name === undefined ? {} : { name: model.name }),
            ...(model.context_window === undefined ? {} : { contextWindow: model.context_window }),
            ...(model.max_tokens === undefined ? {} : { maxTokens: model.max_tokens }),
            ...(model.created === undefined ? {} : { created: model.created })
          }))
        })
  }
}

/**
 * Reads the model settings: the settings file's `models` block (keys and headers may hold `${VAR}` references to
 * the environment), with `ALLOWED_MODELS` (references separated by commas) as the allow list when it is set, and
 * `REASONING_MAX_INPUT_TOKENS` as the input tokens a run may use before its final step.
 * Aliases are one hop: an alias whose target is itself an alias stops the start.
 */
export const readModelSettings = (file: ModelsFile | undefined, env: NodeJS.ProcessEnv): ModelSettings | undefined => {
  const fromEnv = env.ALLOWED_MODELS?.split(",")
    .map((reference) => reference.trim())
    .filter((reference) => reference !== "")
  if (file === undefined && fromEnv === undefined && env.REASONING_MAX_INPUT_TOKENS === undefined) return undefined
  const aliases = file?.aliases ?? {}
  for (const [alias, target] of Object.entries(aliases))
    if (Object.hasOwn(aliases, target) && target !== alias)
      throw new Error(`The alias ${alias} sends to ${target}, which is an alias itself; an alias takes one hop.`)
  const allowed = fromEnv ?? file?.allowed_models
  const maxInputTokens =
    env.REASONING_MAX_INPUT_TOKENS === undefined ? undefined : Number(env.REASONING_MAX_INPUT_TOKENS)
  if (maxInputTokens !== undefined && !(Number.isInteger(maxInputTokens) && maxInputTokens > 0))
    throw new Error(`REASONING_MAX_INPUT_TOKENS is a whole number of tokens, not ${env.REASONING_MAX_INPUT_TOKENS}.`)
  return {
    providers: (file?.providers ?? []).map((provider) => providerOf(provider, env)),
    ...(file?.aliases === undefined ? {} : { aliases }),
    ...(allowed === undefined ? {} : { allowedModels: allowed }),
    ...(maxInputTokens === undefined ? {} : { maxInputTokens })
  }
}
