import { Layer } from "effect"
import { defaultSettings, RuntimeConfig, type RuntimeSettings } from "../config/RuntimeConfig.js"
import type { Formats } from "../formats/DefinitionFormat.js"
import { FormatsLive } from "../formats/FormatsLive.js"
import { Authenticator } from "../ports/Authenticator.js"
import { Ids } from "../ports/Ids.js"
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
