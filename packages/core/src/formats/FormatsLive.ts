import { Effect, Layer } from "effect"
import { Sandbox } from "../ports/Sandbox.js"
import { computationFormat } from "./computation/computationFormat.js"
import { Formats } from "./DefinitionFormat.js"
import { interactionFormat } from "./interaction/interactionFormat.js"

/** The formats this runtime implements, by type: computation, on the `Sandbox` it is given, and interaction. */
export const FormatsLive: Layer.Layer<Formats, never, Sandbox> = Layer.effect(
  Formats,
  Effect.map(
    Sandbox,
    (sandbox) =>
      new Map([
        ["computation", computationFormat(sandbox)],
        ["interaction", interactionFormat]
      ])
  )
)
