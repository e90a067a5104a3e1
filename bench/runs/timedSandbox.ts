import { QuickJsSandbox, Sandbox } from "@runledger/core"
import { Effect, Layer } from "effect"

/**
 * The QuickJS sandbox with a wall-clock timer around each `Sandbox.run` (what the computation format awaits: the
 * wait for a worker, the messages both ways and the run in the worker), each duration in milliseconds pushed on
 * `times`.
 */
export const timedSandbox = (runWorkers: number, times: Array<number>): Layer.Layer<Sandbox> =>
  Layer.effect(
    Sandbox,
    Effect.map(Sandbox, (inner) =>
      Sandbox.of({
        ...inner,
        run: (run) =>
          Effect.suspend(() => {
            const start = performance.now()
            return Effect.ensuring(
              inner.run(run),
              Effect.sync(() => times.push(performance.now() - start))
            )
          })
      })
    )
  ).pipe(Layer.provide(QuickJsSandbox.layer({ runWorkers })))
