import { Activity, Workflow, WorkflowEngine } from "@effect/workflow"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"

/** `@effect/workflow` on its in-memory engine (`WorkflowEngine.layerMemory`) with a workflow of steps n → n + 1. */
export interface EffectWorkflowPeer {
  /** Runs one workflow of `steps` activities from n = 0; its output. */
  readonly run: (steps: number) => Promise<number>
  readonly close: () => Promise<void>
}

/** The workflow: one activity per step, each n → n + 1 (an activity's result is what the engine records). */
const Chain = Workflow.make({
  name: "Chain",
  payload: { id: Schema.String, steps: Schema.Number },
  success: Schema.Number,
  idempotencyKey: ({ id }) => id
})

const ChainLive = Chain.toLayer(({ steps }) =>
  Effect.gen(function* () {
    let n = 0
    for (let step = 0; step < steps; step++) {
      const current = n
      n = yield* Activity.make({
        name: `increment-${step}`,
        success: Schema.Number,
        execute: Effect.sync(() => current + 1)
      })
    }
    return n
  })
)

let workflows = 0

/** Opens the in-memory engine with the chain workflow registered. */
export const openEffectWorkflow = (): EffectWorkflowPeer => {
  const runtime = ManagedRuntime.make(ChainLive.pipe(Layer.provideMerge(WorkflowEngine.layerMemory)))
  return {
    run: (steps) => runtime.runPromise(Chain.execute({ id: `chain-${++workflows}`, steps })),
    close: () => runtime.dispose()
  }
}
