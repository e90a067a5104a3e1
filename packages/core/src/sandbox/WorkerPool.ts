import type { Worker } from "node:worker_threads"
import { Data, Effect, Pool, type Scope } from "effect"
import { workerReady } from "./protocol.js"
import { startWorker, type WorkerName } from "./startWorker.js"

/** No worker could be had before the wait ended. */
export class NoWorker extends Data.TaggedError("NoWorker") {}

/** A worker took the job and did not answer in time; it is ended and replaced. */
export class AnswerLate extends Data.TaggedError("AnswerLate") {}

/** A worker stopped or failed while starting or working. */
export class WorkerDied extends Data.TaggedError("WorkerDied")<{ readonly detail: string }> {}

/** How long to wait: until when a worker may be awaited, and how long it then has to answer. */
export interface CallBounds {
  readonly waitUntil: number
  readonly answerWithin: () => number
}

/** Warm workers of one kind, each taking one job at a time. */
export interface WorkerPool<Job, Answer> {
  readonly call: (job: Job, bounds: CallBounds) => Effect.Effect<Answer, NoWorker | AnswerLate | WorkerDied>
}

/** Options of a pool: which worker, how many at most, their V8 limits, how long an idle one is kept. */
export interface WorkerPoolOptions {
  readonly name: WorkerName
  readonly size: number
  readonly resourceLimits: { readonly maxOldGenerationSizeMb: number; readonly stackSizeMb: number }
  readonly idleMinutes: number
}

/**
 * Waits for the worker's answer (or its death). The listeners are removed when it settles as well as on
 * interruption: `Effect.async` runs its canceler only on interruption, and listeners left behind would pile up on
 * a warm worker, one set per call, each woken by every later message.
 */
const settled = <A>(worker: Worker, onMessage: (message: unknown) => A | undefined) =>
  Effect.async<A, WorkerDied>((resume) => {
    const stop = () => {
      worker.off("message", message).off("error", error).off("exit", exit)
    }
    const settle = (outcome: Effect.Effect<A, WorkerDied>) => {
      stop()
      resume(outcome)
    }
    const message = (value: unknown) => {
      const done = onMessage(value)
      if (done !== undefined) settle(Effect.succeed(done))
    }
    const error = (cause: Error) => settle(Effect.fail(new WorkerDied({ detail: cause.message })))
    const exit = (code: number) =>
      settle(Effect.fail(new WorkerDied({ detail: `the worker exited with code ${code}` })))
    worker.on("message", message).on("error", error).on("exit", exit)
    return Effect.sync(stop)
  })

const acquire = (options: WorkerPoolOptions) =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      const worker = startWorker(options.name, { ...options.resourceLimits })
      return settled(worker, (message) => (message === workerReady ? worker : undefined)).pipe(
        Effect.tapError(() => Effect.promise(() => worker.terminate()))
      )
    }),
    (worker) => Effect.promise(() => worker.terminate())
  )

/**
 * A pool of warm `node:worker_threads` workers, started lazily up to `size` and ended with the scope. A worker
 * that answers late or dies is ended and replaced on a later call, so a runaway job never holds one.
 */
export const makeWorkerPool = <Job, Answer>(
  options: WorkerPoolOptions
): Effect.Effect<WorkerPool<Job, Answer>, never, Scope.Scope> =>
  Effect.map(
    Pool.makeWithTTL({
      acquire: acquire(options),
      min: 0,
      max: options.size,
      timeToLive: `${options.idleMinutes} minutes`,
      timeToLiveStrategy: "usage"
    }),
    (pool) => ({
      call: (job, bounds) =>
        Effect.scoped(
          Effect.gen(function* () {
            const worker = yield* Pool.get(pool).pipe(
              Effect.timeoutFail({
                duration: Math.max(0, bounds.waitUntil - Date.now()),
                onTimeout: () => new NoWorker()
              })
            )
            return yield* Effect.suspend(() => {
              worker.postMessage(job)
              return settled(worker, (message) => message as Answer)
            }).pipe(
              Effect.timeoutFail({ duration: Math.max(0, bounds.answerWithin()), onTimeout: () => new AnswerLate() }),
              Effect.tapError(() => Pool.invalidate(pool, worker))
            )
          })
        )
    })
  )
