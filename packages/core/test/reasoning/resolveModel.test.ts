import { Either } from "effect"
import { describe, expect, it } from "vitest"
import type { ModelSettings } from "../../src/models/ModelSettings.js"
import { aliasTarget, resolveModel } from "../../src/models/resolveModel.js"

const settings: ModelSettings = {
  providers: [
    { name: "gateway", api: "openai" },
    { name: "bedrock", api: "openai" }
  ],
  aliases: {
    fast: "gateway/anthropic/claude-haiku-4-5",
    "openai/*": "gateway/openai/*",
    "openai/gpt-4o/*": "bedrock/gpt-4o-eu/*"
  }
}

describe("model references", () => {
  it("sends an exact alias first, then the wildcard alias of the longest prefix, one hop", () => {
    expect(aliasTarget("fast", settings.aliases!)).toBe("gateway/anthropic/claude-haiku-4-5")
    expect(aliasTarget("openai/gpt-5", settings.aliases!)).toBe("gateway/openai/gpt-5")
    expect(aliasTarget("openai/gpt-4o/mini", settings.aliases!)).toBe("bedrock/gpt-4o-eu/mini")
    expect(aliasTarget("gateway/x", settings.aliases!)).toBeUndefined()
  })

  it("splits the resolved reference at its first slash, keeping the rest as the provider's model id", () => {
    expect(Either.getOrThrow(resolveModel(settings, "fast"))).toMatchObject({
      requested: "fast",
      resolved: "gateway/anthropic/claude-haiku-4-5",
      provider: { name: "gateway" },
      model: "anthropic/claude-haiku-4-5"
    })
  })

  it("refuses outside the allow list, then for a provider not configured, and with no provider at all", () => {
    const narrowed = { ...settings, allowedModels: ["gateway/anthropic/*"] }
    expect(Either.isRight(resolveModel(narrowed, "fast"))).toBe(true)
    expect(Either.flip(resolveModel(narrowed, "openai/gpt-5")).pipe(Either.getOrThrow)).toMatchObject({
      reason: "unavailable",
      kind: "model_not_offered",
      because: "model_not_allowed"
    })
    expect(Either.flip(resolveModel(settings, "mistral/large")).pipe(Either.getOrThrow)).toMatchObject({
      kind: "model_not_offered",
      because: "provider_not_configured",
      detail: expect.stringContaining("gateway, bedrock")
    })
    const none = Either.flip(resolveModel({ providers: [] }, "gateway/x")).pipe(Either.getOrThrow)
    expect([none.reason, none.kind, none.retryAfter]).toEqual(["unavailable", undefined, 60])
  })
})
