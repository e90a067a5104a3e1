import { Effect, Layer } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import { Models } from "../models/Models.js"
import { Sandbox } from "../ports/Sandbox.js"
import { ToolServers } from "../ports/ToolServers.js"
import { WorkflowEngine } from "../workflow/run/WorkflowEngine.js"
import { computationFormat } from "./computation/computationFormat.js"
import { type DefinitionFormat, Formats } from "./DefinitionFormat.js"
import { interactionFormatOn } from "./interaction/interactionFormat.js"
import { lookupFormat } from "./lookup/lookupFormat.js"
import { reasoningFormat } from "./reasoning/reasoningFormat.js"
import { workflowFormat } from "./workflow/workflowFormat.js"

/**
 * The formats this runtime implements, by type: computation, on the `Sandbox` it is given; interaction; and
 * reasoning, on the runtime's `Models`, with its `ToolServers` and their settings where the runtime has them; and workflow, on the
 * runtime's `WorkflowEngine`.
 */
export const FormatsLive: Layer.Layer<Formats, never, Sandbox | Models | WorkflowEngine | RuntimeConfig> = Layer.effect(
  Formats,
  Effect.gen(function* () {
    const sandbox = yield* Sandbox
    const models = yield* Models
    const engine = yield* WorkflowEngine
    const toolServers = yield* Effect.serviceOption(ToolServers)
    const settings = yield* RuntimeConfig
    return new Map<DefinitionFormat["type"], DefinitionFormat>([
      ["computation", computationFormat(sandbox)],
      ["interaction", interactionFormatOn(settings, toolServers)],
      ["reasoning", reasoningFormat(models, { port: toolServers, entries: settings.toolServers ?? [] })],
      ["workflow", workflowFormat(engine)],
      ["lookup", lookupFormat(settings, toolServers)]
    ])
  })
)
