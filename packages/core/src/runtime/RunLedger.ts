import { Layer } from "effect"
import { defaultSettings, RuntimeConfig, type RuntimeSettings } from "../config/RuntimeConfig.js"
import { Authenticator } from "../ports/Authenticator.js"
import { Ids } from "../ports/Ids.js"

/**
 * The core services of a runtime: its settings, the API-key/local-mode authenticator and the id source.
 * A store layer (memory or PostgreSQL) provides the ledger and the views beside it.
 */
export const layer = (settings: Partial<RuntimeSettings> = {}) => {
  const config = Layer.succeed(RuntimeConfig, { ...defaultSettings, ...settings })
  return Layer.mergeAll(config, Ids.live, Authenticator.fromSettings.pipe(Layer.provide(config)))
}
