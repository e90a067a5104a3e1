import { Layer } from "effect"
import { defaultSettings, RuntimeConfig, type RuntimeSettings } from "../config/RuntimeConfig.js"
import type { Formats } from "../formats/DefinitionFormat.js"
import { FormatsLive } from "../formats/FormatsLive.js"
import * as Host from "../host/Host.js"
import * as HostWakeups from "../host/HostWakeups.js"
import { deliveryHostLayer } from "../interactions/deliveryHost.js"
import { repliesHostLayer } from "../interactions/repliesHost.js"
import { Models } from "../models/Models.js"
import { Authenticator } from "../ports/Authenticator.js"
import type { ContentStore } from "../ports/ContentStore.js"
import { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import type { ModelProvider } from "../ports/ModelProvider.js"
import { ToolServers } from "../ports/ToolServers.js"
import type { Views } from "../ports/Views.js"
import * as QuickJsSandbox from "../sandbox/QuickJsSandbox.js"
import * as QuickJsExpressions from "../workflow/expressions/QuickJsExpressions.js"
import { listenHostLayer } from "../workflow/listens/listenHost.js"
import { WorkflowEngine } from "../workflow/run/WorkflowEngine.js"
import { workflowHostLayer } from "../workflow/run/workflowHost.js"
import { triggerHostLayer } from "../workflow/triggers/triggerHost.js"

/** The formats a runtime runs unless told otherwise: every format implemented, on the QuickJS sandbox. */
const defaultFormats: Layer.Layer<Formats, never, Models | WorkflowEngine | RuntimeConfig> = FormatsLive.pipe(
  Layer.provide(QuickJsSandbox.layer())
)

/**
 * The core services of a runtime: its settings, the API-key/local-mode authenticator, the id source, the formats it
 * runs and its models, called through the `ModelProvider` given (`@runledger/model-providers`), or none when none
 * is given, and its tool servers, through the `ToolServers` given (`@runledger/tool-servers`), or none. A store layer (memory or PostgreSQL) provides the ledger and the views beside it.
 */
export const layer = (
  settings: Partial<RuntimeSettings> = {},
  formats: Layer.Layer<Formats, never, Models | WorkflowEngine | RuntimeConfig> = defaultFormats,
  modelProvider?: Layer.Layer<ModelProvider>,
  toolServers?: Layer.Layer<ToolServers, never, RuntimeConfig>
) => {
  const config = Layer.succeed(RuntimeConfig, { ...defaultSettings, ...settings })
  const tools = toolServers === undefined ? undefined : toolServers.pipe(Layer.provide(config))
  const models =
    modelProvider === undefined ? Models.none : Models.layer.pipe(Layer.provide(Layer.merge(config, modelProvider)))
  const engine = WorkflowEngine.layer.pipe(Layer.provide(Layer.merge(config, QuickJsExpressions.layer)))
  return Layer.mergeAll(
    config,
    Ids.live,
    engine,
    formats.pipe(
      Layer.provide(Layer.mergeAll(config, engine, tools === undefined ? models : Layer.merge(models, tools)))
    ),
    models,
    tools ?? ToolServers.none,
    Authenticator.fromSettings.pipe(Layer.provide(config))
  )
}

/**
 * A whole runtime on a store: the core services, the store's ledger and views, and the host that ends waiting
 * runs (answered, cancelled, expired) as a fiber of the runtime's scope (ADR 0186), beside the hosts of workflows,
 * listens (ADR 0295), triggers, deliveries through tools (ADR 0192) and replies read back (ADR 0195). Compose with this rather than
 * merging `layer` with a store, which leaves the host out.
 */
export const onStore = <E>(
  store: Layer.Layer<Ledger | Views | ContentStore, E>,
  settings: Partial<RuntimeSettings> = {},
  formats: Layer.Layer<Formats, never, Models | WorkflowEngine | RuntimeConfig> = defaultFormats,
  modelProvider?: Layer.Layer<ModelProvider>,
  toolServers?: Layer.Layer<ToolServers, never, RuntimeConfig>
) =>
  Layer.provideMerge(
    Layer.mergeAll(
      Host.layer,
      workflowHostLayer,
      listenHostLayer,
      triggerHostLayer,
      deliveryHostLayer,
      repliesHostLayer
    ).pipe(Layer.provide(HostWakeups.layer)),
    Layer.merge(layer(settings, formats, modelProvider, toolServers), store)
  )
