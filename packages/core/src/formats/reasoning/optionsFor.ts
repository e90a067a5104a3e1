import { Either } from "effect"
import { conflict, type Rejection } from "../../domain/Rejection.js"
import type { ModelProviderEntry } from "../../models/ModelSettings.js"

/** A provider prefix in camelCase (`my-gateway` → `myGateway`), the other way a document may name its namespace. */
const camelCase = (name: string): string => name.replace(/-([a-z0-9])/g, (_, next: string) => next.toUpperCase())

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The `provider_options` a provider reads (function-formats.md §2.5): `anthropic` for an Anthropic entry, `openai`
 * for the entry named `openai`, and a gateway's own name (or its camelCase form), whose keys must be among the
 * entry's `allowed_provider_options` or the run ends `conflict`/`unworkable` before the gateway is called.
 */
export const optionsFor = (
  provider: ModelProviderEntry,
  options: Readonly<Record<string, unknown>> | undefined
): Either.Either<Readonly<Record<string, unknown>> | undefined, Rejection> => {
  if (options === undefined) return Either.right(undefined)
  if (provider.api === "anthropic") return Either.right(isMapping(options.anthropic) ? options.anthropic : undefined)
  if (provider.name === "openai") return Either.right(isMapping(options.openai) ? options.openai : undefined)
  const namespace = [provider.name, camelCase(provider.name)].find((name) => isMapping(options[name]))
  if (namespace === undefined) return Either.right(undefined)
  const chosen = options[namespace] as Record<string, unknown>
  const allowed = provider.allowedProviderOptions ?? []
  const refused = Object.keys(chosen).filter((key) => !allowed.includes(key))
  if (refused.length > 0)
    return Either.left(
      conflict(
        `The gateway ${provider.name} does not take the provider option${refused.length === 1 ? "" : "s"} ${refused.join(", ")}; its operator allows ${allowed.join(", ") || "none"}.`,
        "unworkable"
      )
    )
  return Either.right(chosen)
}
