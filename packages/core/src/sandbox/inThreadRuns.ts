import { grewTooLarge } from "./keptEngine.js"
import type { RunJob } from "./protocol.js"
import { newRunEngine, preparedProgramOf, type RunEngine } from "./runEngine.js"
import { type RunOutcome, runProgram } from "./runProgram.js"

/**
 * Checkpoints a run may take on the calling thread, the prelude's one included, before a worker takes it over:
 * 10,000 polls each, 0.2–0.8 ms on this machine (decision 0418).
 */
export const inThreadWork = 4

/** Milliseconds a run may take on the calling thread before a worker takes it over (checked at each checkpoint). */
export const inThreadMillis = 2

/** The longest input, as JSON text, a run may take on the calling thread: a larger one is a worker's. */
export const inThreadInputChars = 65_536

/**
 * Runs of a program in a row that did not end here within the bounds before its runs all go to a worker (a run that
 * failed counts for all of them: the worker words its failure).
 */
const missesToHandOver = 3

/** How many programs' misses are remembered (the oldest forgotten first). */
const programsKept = 256

/** Runs tried on the calling thread first (decision 0418). */
export interface InThreadRuns {
  /**
   * The run's outcome when it ran to a result on this thread within the bounds above; undefined when a worker must
   * run it: the run stopped, failed, or threw out of the module, or its program missed three times in a row or
   * failed once before.
   */
  readonly attempt: (job: RunJob) => RunOutcome | undefined
}

/**
 * A computation engine on the calling thread, the run workers' own (`newRunEngine`: same build, prelude, kept
 * context and bounds), so a run that ends here ends as it would in a worker, output and work count included.
 * Undefined on a build whose memory layout is not known: there each run opens a context, which the workers do ahead.
 * An engine whose memory grew past 64 MiB, or that threw, is replaced in the background; runs go to the workers
 * until the new one is loaded.
 */
export const openInThreadRuns = async (): Promise<InThreadRuns | undefined> => {
  const first = await newRunEngine()
  if (first.kept === undefined) return undefined
  let engine: RunEngine | undefined = first
  let loading = false
  const replace = () => {
    engine = undefined
    if (loading) return
    loading = true
    newRunEngine().then(
      (next) => {
        loading = false
        if (next.kept !== undefined) engine = next
      },
      () => {
        loading = false
      }
    )
  }
  const misses = new Map<string, number>()
  /** Counts a miss of `script`'s: a run stopped or slowed past the bounds, or, with `count` 3, one that failed. */
  const missed = (script: string, count: number) => {
    misses.set(script, (misses.get(script) ?? 0) + count)
    if (misses.size > programsKept) misses.delete(misses.keys().next().value!)
  }
  return {
    attempt: (job) => {
      const current = engine
      if (current?.kept === undefined) {
        replace()
        return undefined
      }
      if (job.inputJson.length > inThreadInputChars || Date.now() >= job.deadline) return undefined
      const program = preparedProgramOf(job)
      if (program._tag === "Refused" || (misses.get(program.script) ?? 0) >= missesToHandOver) return undefined
      const began = performance.now()
      let outcome: RunOutcome
      try {
        outcome = runProgram(current.kept, {
          script: program.script,
          inputJson: job.inputJson,
          now: job.now,
          deadline: Math.min(job.deadline, Date.now() + inThreadMillis),
          bounds: { ...job.bounds, work: Math.min(job.bounds.work, inThreadWork) }
        })
      } catch {
        replace()
        missed(program.script, missesToHandOver)
        return undefined
      }
      if (grewTooLarge(current.module)) replace()
      const stopped = outcome._tag === "Deadline" || (outcome._tag === "Unworkable" && outcome.work > inThreadWork)
      const slow = performance.now() - began > inThreadMillis
      if (outcome._tag === "Ran" && !slow) misses.delete(program.script)
      else missed(program.script, outcome._tag === "Ran" || stopped ? 1 : missesToHandOver)
      return outcome._tag === "Ran" ? outcome : undefined
    }
  }
}
