import { Layer } from "effect"
import { defaultSettings, RuntimeConfig, type RuntimeSettings } from "../config/RuntimeConfig.js"
import { type DefinitionFormat, Formats } from "../formats/DefinitionFormat.js"
import { Authenticator } from "../ports/Authenticator.js"
import { Ids } from "../ports/Ids.js"

/** The formats a runtime runs unless told otherwise. */
const defaultFormats: Layer.Layer<Formats> = Layer.succeed(
  Formats,
  new Map<DefinitionFormat["type"], DefinitionFormat>()
)

/**
 * The core services of a runtime: its settings, the API-key/local-mode authenticator, the id source and the
 * formats it runs. A store layer (memory or PostgreSQL) provides the ledger and the views beside it.
 */
export const layer = (settings: Partial<RuntimeSettings> = {}, formats: Layer.Layer<Formats> = defaultFormats) => {
  const config = Layer.succeed(RuntimeConfig, { ...defaultSettings, ...settings })
  return Layer.mergeAll(config, Ids.live, formats, Authenticator.fromSettings.pipe(Layer.provide(config)))
}
