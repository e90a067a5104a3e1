import { Effect, Layer } from "effect"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import {
  CheckerTimedOut,
  CheckerUnavailable,
  ProgramUnworkable,
  Sandbox,
  SandboxBroke,
  SandboxDeadline,
  type SandboxResult
} from "../ports/Sandbox.js"
import { openInThreadRuns } from "./inThreadRuns.js"
import type { CheckAnswer, CheckJob, RunAnswer, RunJob } from "./protocol.js"
import { computationBounds, type SandboxBounds } from "./sandboxBounds.js"
import { makeWorkerPool } from "./WorkerPool.js"

/** Operator settings of the QuickJS sandbox; every one has the spec's default. */
export interface QuickJsSandboxOptions {
  /** Run workers at most (default 4). */
  readonly runWorkers?: number
  /** Bounds of each run (default: function-formats.md §4.6). */
  readonly bounds?: Partial<SandboxBounds>
  /** How long a ready checker has for one check, in milliseconds (default 2,000). */
  readonly checkMillis?: number
  /** How long a check waits for a ready checker before answering unavailable, in milliseconds (default 10,000). */
  readonly checkerWaitMillis?: number
  /** Minutes an idle worker is kept warm (default 60). */
  readonly idleMinutes?: number
  /** Whether a run is tried on the calling thread first, a worker taking it over past 2 ms (default true; decision 0418). */
  readonly inThread?: boolean
}

/** Time a run worker gets past the deadline to answer before it is ended (its own handler stops at the deadline). */
const graceMillis = 1_000

/**
 * The `Sandbox` on QuickJS compiled to WebAssembly (function-formats.md §1.9): runs in a pool of warm
 * `node:worker_threads` workers (a 64 MiB thread stack, so QuickJS's own 1 MiB stack limit is what a deep
 * recursion meets), checks in one warm checker worker. Workers start lazily and end with the layer's scope. A run
 * is first tried on the calling thread in the same engine, and kept there only if it gives its result within a few
 * checkpoints (decision 0418): a short run then costs no hand-over to a worker, and any other ends in a worker.
 */
export const layer = (options: QuickJsSandboxOptions = {}): Layer.Layer<Sandbox> =>
  Layer.scoped(
    Sandbox,
    Effect.gen(function* () {
      const idleMinutes = options.idleMinutes ?? 60
      const bounds = { ...computationBounds, ...options.bounds }
      const runs = yield* makeWorkerPool<RunJob, RunAnswer>({
        name: "runWorker",
        size: options.runWorkers ?? 4,
        resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 64 },
        idleMinutes,
        inFlight: 2
      })
      const checker = yield* makeWorkerPool<CheckJob, CheckAnswer>({
        name: "checkerWorker",
        size: 1,
        resourceLimits: { maxOldGenerationSizeMb: 512, stackSizeMb: 16 },
        idleMinutes
      })
      const inThread =
        options.inThread === false ? undefined : yield* Effect.promise(() => openInThreadRuns().catch(() => undefined))
      const checkMillis = options.checkMillis ?? 2_000
      const late = () => new SandboxDeadline({ detail: "the run did not finish before its deadline" })
      const noWorker = () => new SandboxDeadline({ detail: "no sandbox worker was free before the deadline" })
      /** What a run's answer, from a worker or from this thread, gives the caller. */
      const settle = (
        answer: RunAnswer
      ): Effect.Effect<SandboxResult, ProgramUnworkable | SandboxDeadline | SandboxBroke> => {
        if (answer._tag === "Ran") {
          return Effect.succeed({
            output: JSON.parse(answer.json) as unknown,
            outputBytes: utf8Bytes(answer.json),
            work: answer.work
          })
        }
        if (answer._tag === "Unworkable") {
          return Effect.fail(new ProgramUnworkable({ detail: answer.detail, work: answer.work }))
        }
        if (answer._tag === "NotStarted") return Effect.fail(noWorker())
        return Effect.fail(answer._tag === "Deadline" ? late() : new SandboxBroke({ detail: answer.detail }))
      }
      return Sandbox.of({
        run: (run) =>
          Effect.suspend(() => {
            const job: RunJob = {
              program: { source: run.source, firstLine: run.firstLine },
              inputJson: JSON.stringify(run.input),
              now: run.now,
              deadline: run.deadline,
              bounds
            }
            const here = inThread?.attempt(job)
            if (here !== undefined) return settle(here)
            return runs
              .call(job, { waitUntil: run.deadline, answerWithin: () => run.deadline - Date.now() + graceMillis })
              .pipe(
                Effect.catchTags({
                  NoWorker: () => Effect.fail(noWorker()),
                  AnswerLate: () => Effect.fail(late()),
                  WorkerDied: (died) => Effect.fail(new SandboxBroke({ detail: died.detail }))
                }),
                Effect.flatMap(settle)
              )
          }),
        check: (check) =>
          checker
            .call(
              { program: { source: check.source, firstLine: check.firstLine }, declarations: check.declarations },
              { waitUntil: Date.now() + (options.checkerWaitMillis ?? 10_000), answerWithin: () => checkMillis }
            )
            .pipe(
              Effect.catchTags({
                NoWorker: () => Effect.fail(new CheckerUnavailable({ detail: "no type checker was ready" })),
                AnswerLate: () => Effect.fail(new CheckerTimedOut({ seconds: checkMillis / 1000 })),
                WorkerDied: (died) => Effect.fail(new SandboxBroke({ detail: died.detail }))
              }),
              Effect.flatMap((answer) =>
                answer._tag === "Checked"
                  ? Effect.succeed(answer.issues)
                  : Effect.fail(new SandboxBroke({ detail: answer.detail }))
              )
            )
      })
    })
  )
