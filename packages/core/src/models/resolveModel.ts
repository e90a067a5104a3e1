import { Either } from "effect"
import { type Rejection, reject } from "../domain/Rejection.js"
import type { ModelProviderEntry, ModelSettings } from "./ModelSettings.js"

/** A model reference as a run calls it: as written, as its alias sends it, and the provider and model it reaches. */
export interface ResolvedModel {
  readonly requested: string
  readonly resolved: string
  readonly provider: ModelProviderEntry
  /** The provider's id of the model: the reference after the provider's prefix and its slash. */
  readonly model: string
}

/** Seconds after which a request refused for want of any model provider may be sent again. */
const noProviderRetrySeconds = 60

/**
 * Where an alias sends a reference (function-formats.md §2.4): the exact alias first, then the wildcard alias
 * `prefix/*` of the longest prefix, whose target's `*` takes the rest of the reference. One hop; absent when no
 * alias names it.
 */
export const aliasTarget = (reference: string, aliases: Readonly<Record<string, string>>): string | undefined => {
  const exact = aliases[reference]
  if (exact !== undefined && !reference.endsWith("*")) return exact
  let best: { prefix: string; target: string } | undefined
  for (const [alias, target] of Object.entries(aliases)) {
    if (!alias.endsWith("/*")) continue
    const prefix = alias.slice(0, -1)
    if (reference.startsWith(prefix) && reference.length > prefix.length && (best?.prefix.length ?? -1) < prefix.length)
      best = { prefix, target }
  }
  if (best === undefined) return undefined
  const rest = reference.slice(best.prefix.length)
  return best.target.endsWith("*") ? `${best.target.slice(0, -1)}${rest}` : best.target
}

/** Whether an allow list entry admits a reference: the same reference, or `prefix/*` over it. */
const admits = (entry: string, reference: string): boolean =>
  entry.endsWith("*") ? reference.startsWith(entry.slice(0, -1)) : entry === reference

/** Whether the operator's allow list admits a reference, as written or as its alias sends it. */
export const isAllowed = (settings: ModelSettings, requested: string, resolved: string): boolean =>
  settings.allowedModels === undefined ||
  settings.allowedModels.some((entry) => admits(entry, requested) || admits(entry, resolved))

/** The provider prefix of a reference and the model after it: split at the first slash, both sides non-empty. */
export const splitReference = (reference: string): { readonly prefix: string; readonly model: string } | undefined => {
  const slash = reference.indexOf("/")
  if (slash <= 0 || slash === reference.length - 1) return undefined
  return { prefix: reference.slice(0, slash), model: reference.slice(slash + 1) }
}

/** The providers and aliases a refusal names, never a setting. */
const offeredWords = (settings: ModelSettings): string => {
  const providers = settings.providers.map((provider) => provider.name).join(", ")
  const aliases = Object.keys(settings.aliases ?? {})
  return `This runtime's providers are ${providers}${aliases.length === 0 ? "" : `, and its aliases ${aliases.join(", ")}`}.`
}

/**
 * Resolves the model a function names before anything is called (HTTP seed "Models and tools a function may not
 * use"): no provider at all is `unavailable` without a kind (with Retry-After); a reference outside the allow list
 * is `model_not_offered`/`model_not_allowed`; one whose provider is not configured `provider_not_configured`.
 */
export const resolveModel = (settings: ModelSettings, requested: string): Either.Either<ResolvedModel, Rejection> => {
  if (settings.providers.length === 0)
    return Either.left(
      reject("unavailable", "No model provider is configured on this runtime.", { retryAfter: noProviderRetrySeconds })
    )
  const resolved = aliasTarget(requested, settings.aliases ?? {}) ?? requested
  if (!isAllowed(settings, requested, resolved))
    return Either.left(
      reject(
        "unavailable",
        `The model ${requested} is not among the models this runtime's operator allows; list_models shows those it offers.`,
        { kind: "model_not_offered", because: "model_not_allowed" }
      )
    )
  const split = splitReference(resolved)
  const provider = split === undefined ? undefined : settings.providers.find((entry) => entry.name === split.prefix)
  if (split === undefined || provider === undefined)
    return Either.left(
      reject(
        "unavailable",
        `No provider of this runtime serves the model ${requested}. ${offeredWords(settings)} list_models shows the models it offers.`,
        { kind: "model_not_offered", because: "provider_not_configured" }
      )
    )
  return Either.right({ requested, resolved, provider, model: split.model })
}
