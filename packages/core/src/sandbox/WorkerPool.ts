import type { Worker } from "node:worker_threads"
import { Data, Effect, Exit, type Scope } from "effect"
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

/** Warm workers of one kind, each carrying out its jobs one at a time, in the order it got them. */
export interface WorkerPool<Job, Answer> {
  readonly call: (job: Job, bounds: CallBounds) => Effect.Effect<Answer, NoWorker | AnswerLate | WorkerDied>
}

/** Options of a pool: which worker, how many at most, their V8 limits, how long an idle one is kept. */
export interface WorkerPoolOptions {
  readonly name: WorkerName
  readonly size: number
  readonly resourceLimits: { readonly maxOldGenerationSizeMb: number; readonly stackSizeMb: number }
  readonly idleMinutes: number
  /**
   * Jobs a worker holds at once: the one it carries out and those queued behind it (default 1). Above 1 the
   * next job is already in the worker when one ends, so a busy worker never waits for the main thread.
   */
  readonly inFlight?: number
}

type Settle<Answer> = (exit: Exit.Exit<Answer, NoWorker | AnswerLate | WorkerDied>) => void

/** A job waiting for a worker, or handed to one. */
interface Entry<Job, Answer> {
  readonly job: Job
  readonly bounds: CallBounds
  readonly settle: Settle<Answer>
  timer?: ReturnType<typeof setTimeout>
  settled: boolean
}

/** One worker, whether it has reported ready, and the jobs it holds, oldest (the one it carries out) first. */
interface Slot<Job, Answer> {
  readonly worker: Worker
  ready: boolean
  readonly held: Array<Entry<Job, Answer>>
  idle?: ReturnType<typeof setTimeout>
}

const finish = <Job, Answer>(
  entry: Entry<Job, Answer>,
  exit: Exit.Exit<Answer, NoWorker | AnswerLate | WorkerDied>
) => {
  if (entry.settled) return
  entry.settled = true
  clearTimeout(entry.timer)
  entry.settle(exit)
}

/**
 * A pool of warm `node:worker_threads` workers, started lazily up to `size` and ended with the scope (decision
 * 0232). A job waits on the main thread until a ready worker holds fewer than `inFlight` jobs, or until its
 * `waitUntil`; it is then posted, and the worker must answer within `answerWithin()` from then. A worker that
 * answers late is ended: the late job fails with `AnswerLate`, the jobs queued behind it (not started: a worker
 * carries out one job at a time, in order) wait again for another worker. A worker that dies fails the job it
 * was carrying out; one idle for `idleMinutes` is ended.
 */
export const makeWorkerPool = <Job, Answer>(
  options: WorkerPoolOptions
): Effect.Effect<WorkerPool<Job, Answer>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const inFlight = Math.max(1, options.inFlight ?? 1)
    const idleMillis = options.idleMinutes * 60_000
    const slots: Array<Slot<Job, Answer>> = []
    const waiting: Array<Entry<Job, Answer>> = []
    let closed = false

    const remove = (slot: Slot<Job, Answer>) => {
      const at = slots.indexOf(slot)
      if (at < 0) return false
      slots.splice(at, 1)
      clearTimeout(slot.idle)
      void slot.worker.terminate()
      return true
    }

    /** Ends a worker: its oldest job gets `exit`, the others wait again, first in line. */
    const end = (slot: Slot<Job, Answer>, exit: Exit.Exit<Answer, NoWorker | AnswerLate | WorkerDied>) => {
      if (!remove(slot)) return
      const [current, ...queued] = slot.held
      if (current !== undefined) finish(current, exit)
      else if (!slot.ready) {
        const first = waiting.shift()
        if (first !== undefined) finish(first, exit)
      }
      const again = queued.filter((entry) => !entry.settled)
      waiting.unshift(...again)
      for (const entry of again) awaitWorker(entry)
      pump()
    }

    const start = () => {
      const worker = startWorker(options.name, { ...options.resourceLimits })
      const slot: Slot<Job, Answer> = { worker, ready: false, held: [] }
      slots.push(slot)
      const died = (detail: string) => end(slot, Exit.fail(new WorkerDied({ detail })))
      worker.on("message", (message: unknown) => {
        if (!slot.ready) {
          if (message !== workerReady) return
          slot.ready = true
          slot.idle = setTimeout(() => {
            if (slot.held.length === 0) remove(slot)
            else slot.idle?.refresh()
          }, idleMillis).unref()
        } else {
          const entry = slot.held.shift()
          if (entry !== undefined) finish(entry, Exit.succeed(message as Answer))
        }
        pump()
      })
      worker.on("error", (cause: Error) => died(cause.message))
      worker.on("exit", (code: number) => died(`the worker exited with code ${code}`))
    }

    const post = (slot: Slot<Job, Answer>, entry: Entry<Job, Answer>) => {
      clearTimeout(entry.timer)
      slot.held.push(entry)
      slot.idle?.refresh()
      entry.timer = setTimeout(() => end(slot, Exit.fail(new AnswerLate())), Math.max(0, entry.bounds.answerWithin()))
      slot.worker.postMessage(entry.job)
    }

    /** The ready worker holding the fewest jobs, if it can take one more. */
    const freest = () => {
      let best: Slot<Job, Answer> | undefined
      for (const slot of slots)
        if (slot.ready && slot.held.length < inFlight && (best === undefined || slot.held.length < best.held.length))
          best = slot
      return best
    }

    /** Hands waiting jobs to workers, and starts one more worker when none is idle and the pool is not full. */
    const pump = () => {
      if (closed) return
      for (let idle = freest(); waiting.length > 0 && idle !== undefined && idle.held.length === 0; idle = freest())
        post(idle, waiting.shift()!)
      const starting = slots.filter((slot) => !slot.ready).length
      if (waiting.length > starting && slots.length < options.size) start()
      while (waiting.length > 0) {
        const slot = freest()
        if (slot === undefined) break
        post(slot, waiting.shift()!)
      }
    }

    const awaitWorker = (entry: Entry<Job, Answer>) => {
      clearTimeout(entry.timer)
      entry.timer = setTimeout(
        () => {
          const at = waiting.indexOf(entry)
          if (at >= 0) waiting.splice(at, 1)
          finish(entry, Exit.fail(new NoWorker()))
        },
        Math.max(0, entry.bounds.waitUntil - Date.now())
      )
    }

    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        closed = true
        const all = slots.splice(0)
        for (const slot of all) clearTimeout(slot.idle)
        await Promise.all(all.map((slot) => slot.worker.terminate()))
      })
    )

    return {
      call: (job, bounds) =>
        Effect.async<Answer, NoWorker | AnswerLate | WorkerDied>((resume) => {
          const entry: Entry<Job, Answer> = { job, bounds, settle: (exit) => resume(exit), settled: false }
          waiting.push(entry)
          pump()
          // Only a job left waiting needs the timer of its wait: a posted one has its answer's (ADR 0298).
          if (waiting.includes(entry)) awaitWorker(entry)
          return Effect.sync(() => {
            entry.settled = true
            clearTimeout(entry.timer)
            const at = waiting.indexOf(entry)
            if (at >= 0) waiting.splice(at, 1)
          })
        })
    }
  })
