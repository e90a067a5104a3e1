import { Layer } from "effect"
import { defaultSettings, RuntimeConfig, type RuntimeSettings } from "../config/RuntimeConfig.js"
import type { Formats } from "../formats/DefinitionFormat.js"
import { FormatsLive } from "../formats/FormatsLive.js"
import * as Host from "../host/Host.js"
import { Authenticator } from "../ports/Authenticator.js"
import { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import type { Views } from "../ports/Views.js"
import * as QuickJsSandbox from "../sandbox/QuickJsSandbox.js"

/** The formats a runtime runs unless told otherwise: every format implemented, on the QuickJS sandbox. */
const defaultFormats: Layer.Layer<Formats> = FormatsLive.pipe(Layer.provide(QuickJsSandbox.layer()))

/**
 * The core services of a runtime: its settings, the API-key/local-mode authenticator, the id source and the
 * formats it runs. A store layer (memory or PostgreSQL) provides the ledger and the views beside it.
 */
export const layer = (settings: Partial<RuntimeSettings> = {}, formats: Layer.Layer<Formats> = defaultFormats) => {
  const config = Layer.succeed(RuntimeConfig, { ...defaultSettings, ...settings })
  return Layer.mergeAll(config, Ids.live, formats, Authenticator.fromSettings.pipe(Layer.provide(config)))
}

/**
 * A whole runtime on a store: the core services, the store's ledger and views, and the host that ends waiting
 * runs (answered, cancelled, expired) as a fiber of the runtime's scope (ADR 0186). Compose with this rather than
 * merging `layer` with a store, which leaves the host out.
 */
export const onStore = <E>(
  store: Layer.Layer<Ledger | Views, E>,
  settings: Partial<RuntimeSettings> = {},
  formats: Layer.Layer<Formats> = defaultFormats
) => Layer.provideMerge(Host.layer, Layer.merge(layer(settings, formats), store))
