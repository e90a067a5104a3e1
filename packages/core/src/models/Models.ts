import { Clock, Context, Effect, Layer } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import {
  type ListedModel,
  type ModelAnswer,
  ModelCallFailed,
  ModelProvider,
  type ModelRequest
} from "../ports/ModelProvider.js"
import type { ModelList } from "./ModelList.js"
import type { ModelSettings } from "./ModelSettings.js"
import { modelEntries, type ProviderModels } from "./modelEntries.js"
import { providerLists } from "./providerLists.js"

/**
 * The models of a runtime: its model settings, the calls of its `ModelProvider`, and `list_models`'s list with each
 * provider's list kept as the MCP seed says. A runtime given no model provider has none (`Models.none`).
 */
export class Models extends Context.Tag("@runledger/core/Models")<
  Models,
  {
    readonly settings: ModelSettings
    readonly call: (request: ModelRequest) => Effect.Effect<ModelAnswer, ModelCallFailed>
    /** The list of one provider prefix, or of every provider. */
    readonly list: (provider?: string) => Effect.Effect<ModelList>
  }
>() {
  /** The models of the settings' providers, called through the `ModelProvider` port. */
  static readonly layer: Layer.Layer<Models, never, ModelProvider | RuntimeConfig> = Layer.effect(
    Models,
    Effect.gen(function* () {
      const port = yield* ModelProvider
      const settings = (yield* RuntimeConfig).models ?? { providers: [] }
      const cached = providerLists(port)
      const list = (selected?: string) =>
        Effect.gen(function* () {
          const providers = settings.providers.filter((entry) => selected === undefined || entry.name === selected)
          const lists = yield* Effect.forEach(
            providers,
            (provider) => {
              const declared: ReadonlyArray<ListedModel> = provider.models ?? []
              if (provider.lists === false)
                return Effect.succeed({
                  list: { provider, ...(declared.length === 0 ? {} : { models: declared }) } as ProviderModels,
                  stale: false,
                  readAt: undefined
                })
              return Effect.map(cached(provider), (read) => ({
                list: { provider, models: [...declared, ...(read.models ?? [])] } as ProviderModels,
                stale: read.stale,
                readAt: read.readAt
              }))
            },
            { concurrency: "unbounded" }
          )
          const now = yield* Clock.currentTimeMillis
          const times = lists.flatMap((read) => (read.readAt === undefined ? [] : [read.readAt]))
          return {
            object: "list",
            data: modelEntries(
              settings,
              lists.map((read) => read.list)
            ),
            catalog_status: lists.some((read) => read.stale) ? "partial" : "complete",
            narrowed: settings.allowedModels !== undefined,
            listed_at: new Date(times.length === 0 ? now : Math.min(...times)).toISOString()
          } as const
        })
      return { settings, call: port.call, list }
    })
  )

  /** A runtime without model providers: every run of a reasoning function is refused, and nothing is listed. */
  static readonly none: Layer.Layer<Models> = Layer.succeed(Models, {
    settings: { providers: [] },
    call: () =>
      Effect.fail(new ModelCallFailed({ kind: "provider_not_configured", providerMessage: "no model provider" })),
    list: () =>
      Effect.map(Clock.currentTimeMillis, (now) => ({
        object: "list",
        data: [],
        catalog_status: "complete",
        narrowed: false,
        listed_at: new Date(now).toISOString()
      }))
  })
}
