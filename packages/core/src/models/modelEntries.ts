import type { ListedModel } from "../ports/ModelProvider.js"
import type { ModelEntry } from "./ModelList.js"
import type { ModelProviderEntry, ModelSettings } from "./ModelSettings.js"
import { aliasTarget, isAllowed, splitReference } from "./resolveModel.js"

/** What is known of one provider's models: what it listed (or declared), or nothing when it lists nothing. */
export interface ProviderModels {
  readonly provider: ModelProviderEntry
  /** Its models; absent for a provider that lists nothing and declares nothing (it takes any model id). */
  readonly models?: ReadonlyArray<ListedModel>
}

/** The longest id an entry may have. */
const idBound = 256

/** The longest name an entry keeps. */
const nameBound = 100

/** An id the list leaves out: empty, too long, with a space, a control character or `*`, or a Bedrock ARN. */
const refusedId = (id: string): boolean =>
  id === "" || id.length > idBound || /[\s\p{Cc}*]/u.test(id) || /(^|\/)arn:/.test(id)

const modelEntry = (provider: string, model: ListedModel): ModelEntry => ({
  id: `${provider}/${model.id}`,
  object: "model",
  created: model.created ?? 0,
  owned_by: provider,
  ...(model.name !== undefined && model.name.length <= nameBound && !/[\r\n]/.test(model.name)
    ? { name: model.name }
    : {}),
  ...(model.contextWindow === undefined ? {} : { context_window: model.contextWindow }),
  ...(model.maxTokens === undefined ? {} : { max_tokens: model.maxTokens })
})

/** Whether an alias redirects a reference, so a definition that names it reaches the alias instead. */
const redirected = (id: string, aliases: Readonly<Record<string, string>>): boolean =>
  aliasTarget(id, aliases) !== undefined

/**
 * The entries of `list_models` (MCP seed "What the list leaves out"): each provider's models as
 * `<provider>/<id>`, a `<provider>/*` wildcard for one that takes any id, and the aliases whose target provider is
 * configured; leaving out models an alias redirects, what the allow list does not allow and ids the seed refuses.
 * Sorted by id, each id once.
 */
export const modelEntries = (settings: ModelSettings, lists: ReadonlyArray<ProviderModels>): Array<ModelEntry> => {
  const aliases = settings.aliases ?? {}
  const configured = new Set(settings.providers.map((provider) => provider.name))
  const entries = new Map<string, ModelEntry>()
  const add = (entry: ModelEntry, target: string) => {
    if (!entries.has(entry.id) && isAllowed(settings, entry.id, target)) entries.set(entry.id, entry)
  }
  for (const { provider, models } of lists) {
    if (models === undefined) {
      const wildcard = `${provider.name}/*`
      if (!redirected(wildcard, aliases))
        add({ id: wildcard, object: "model", created: 0, owned_by: provider.name, pattern: true }, wildcard)
      continue
    }
    for (const model of models) {
      const entry = modelEntry(provider.name, model)
      if (!refusedId(model.id) && !redirected(entry.id, aliases)) add(entry, entry.id)
    }
  }
  const served = new Set(lists.map((list) => list.provider.name))
  for (const [alias, target] of Object.entries(aliases)) {
    const prefix = splitReference(target)?.prefix
    if (prefix === undefined || !configured.has(prefix) || !served.has(prefix)) continue
    add(
      {
        id: alias,
        object: "model",
        created: 0,
        owned_by: prefix,
        alias: true,
        ...(/(^|\/)arn:/.test(target) ? {} : { resolved_to: target }),
        ...(alias.endsWith("*") ? { pattern: true } : {})
      },
      target
    )
  }
  return [...entries.values()].sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0))
}
