import { describe, expect, it } from "vitest"
import { readModelSettings } from "../src/modelSettings.js"

/** A `${NAME}` reference, as a settings file writes one. */
const reference = (name: string) => `\${${name}}`

describe("the example server's model settings", () => {
  it("reads providers with their keys from the environment, aliases, and ALLOWED_MODELS over the file's list", () => {
    const settings = readModelSettings(
      {
        providers: [
          {
            name: "gateway",
            api: "openai",
            base_url: "https://gw.example/v1",
            api_key: reference("GW_KEY"),
            cost_header: "x-cost"
          }
        ],
        aliases: { fast: "gateway/small" },
        allowed_models: ["gateway/*"]
      },
      { GW_KEY: "sk-from-env", ALLOWED_MODELS: "gateway/small, fast", REASONING_MAX_INPUT_TOKENS: "5000" }
    )
    expect(settings).toEqual({
      providers: [
        {
          name: "gateway",
          api: "openai",
          baseUrl: "https://gw.example/v1",
          apiKey: "sk-from-env",
          costHeader: "x-cost"
        }
      ],
      aliases: { fast: "gateway/small" },
      allowedModels: ["gateway/small", "fast"],
      maxInputTokens: 5000
    })
  })

  it("stops the start for an unset variable, an alias of an alias, and a provider name that is not a prefix", () => {
    expect(() =>
      readModelSettings({ providers: [{ name: "gw", api: "openai", api_key: reference("NOPE") }] }, {})
    ).toThrow(reference("NOPE"))
    expect(() => readModelSettings({ aliases: { a: "b", b: "gw/x" } }, {})).toThrow("an alias takes one hop")
    expect(() => readModelSettings({ providers: [{ name: "Bad Name", api: "openai" }] }, {})).toThrow("lowercase")
    expect(readModelSettings(undefined, {})).toBeUndefined()
  })
})
