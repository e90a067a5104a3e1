import { invalidAt, type Rejection, reject } from "../../domain/Rejection.js"
import type { ModelProviderEntry } from "../../models/ModelSettings.js"
import type { ResolvedModel } from "../../models/resolveModel.js"
import type { ModelCallFailed } from "../../ports/ModelProvider.js"

/** Seconds after which a call the provider could not take may be sent again, when it names no delay. */
const laterSeconds = 30

/** The providers whose own words may reach a caller when reached at their default endpoints. */
const builtIn = new Set(["anthropic", "openai"])

/** The shortest text redacted from a provider's words. */
const redactedLength = 8

/** A text with the provider's key and header values (8 characters or more) and the other texts given redacted. */
export const redacted = (provider: ModelProviderEntry, text: string, others: ReadonlyArray<string> = []): string =>
  [provider.apiKey ?? "", ...Object.values(provider.headers ?? {}), ...others]
    .filter((secret) => secret.length >= redactedLength)
    .reduce((words, secret) => words.replaceAll(secret, "[redacted]"), text)

/**
 * The provider's words a caller may read (function-formats.md §2.8): only from a built-in provider at its default
 * endpoint or an entry with `expose_provider_messages`; its key, header values and the prompt's texts redacted.
 */
export const exposedWords = (model: ResolvedModel, failure: ModelCallFailed, prompt: ReadonlyArray<string>): string => {
  const { provider } = model
  const exposed =
    provider.exposeProviderMessages === true || (builtIn.has(provider.name) && provider.baseUrl === undefined)
  if (!exposed || failure.providerMessage === "") return ""
  return ` The provider said: ${redacted(provider, failure.providerMessage, prompt)}`
}

/** The delay the provider asked for (`Retry-After`), in whole seconds, at least 1. */
const askedSeconds = (failure: ModelCallFailed): number | undefined =>
  failure.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(failure.retryAfterMs / 1000))

/**
 * The run's ending for a model call that got no answer (function-formats.md §2.8): the definition's fault is
 * `conflict`/`unworkable`; a provider not configured is `model_not_offered`; a refused key, a rate limit, an
 * unavailable provider or a call past its deadline are `unavailable` (with Retry-After where waiting may help: the
 * provider's own delay when it names one, on a 429 or a 503 alike);
 * a content refusal is `invalid_input` at `/input`.
 */
export const modelFailureRejection = (model: ResolvedModel, failure: ModelCallFailed, words: string): Rejection => {
  const status = failure.status === undefined ? "" : ` with ${failure.status}`
  const name = model.provider.name
  switch (failure.kind) {
    case "definition_invalid":
      return reject(
        "conflict",
        `The provider ${name} refused the call${status}: it does not take this definition's model, settings or prompt as they are.${words}`,
        { kind: "unworkable" }
      )
    case "provider_not_configured":
      return reject(
        "unavailable",
        `The provider ${name} is not set up so that this runtime can call it; list_models shows the models it offers.`,
        { kind: "model_not_offered", because: "provider_not_configured" }
      )
    case "credentials_rejected":
      return reject("unavailable", `The provider ${name} refused this runtime's credentials${status}.${words}`)
    case "rate_limited": {
      const seconds = askedSeconds(failure)
      return reject(
        "unavailable",
        `The provider ${name} is limiting this runtime's calls${seconds === undefined ? "; try again later" : `; try again in ${seconds} s`}.${words}`,
        { retryAfter: seconds ?? laterSeconds }
      )
    }
    case "provider_unavailable": {
      const seconds = askedSeconds(failure)
      return reject(
        "unavailable",
        `The provider ${name} could not take the call${status}${seconds === undefined ? "; try again later" : `; try again in ${seconds} s`}.${words}`,
        { retryAfter: seconds ?? laterSeconds }
      )
    }
    case "timed_out":
      return reject(
        "unavailable",
        `The model ${model.requested} did not answer within the call's deadline; try again later.`,
        {
          because: "model_unavailable",
          retryAfter: laterSeconds
        }
      )
    case "content_refused":
      return invalidAt("/input", `The provider ${name} refused the prompt under its content policy.${words}`)
  }
}
