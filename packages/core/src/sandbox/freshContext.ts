import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core"
import { cutText } from "../formats/cutText.js"
import { captureImage, type MemoryLayout } from "./memoryImage.js"
import { outOfMemory, type RunOutcome } from "./runProgram.js"
import type { SandboxBounds } from "./sandboxBounds.js"
import { sandboxPrelude, wordsScript } from "./sandboxPrelude.js"

/**
 * A QuickJS runtime and context, the prelude evaluated in it, waiting for the run it serves. It has seen no program
 * and no run: either new (a worker readies the next one while it waits for a job, decision 0231), or kept and put
 * back, after each run, to the bytes it had before any (decision 0235).
 */
export interface FreshContext {
  readonly context: QuickJSContext
  /** The prelude's runner: `(factory, inputJson, now, maxOutputChars) => string`. */
  readonly runner: QuickJSHandle
  /** Sets the run's bounds and deadline: memory and stack limits of the runtime, work budget of the meter. */
  readonly limit: (bounds: SandboxBounds, deadline: number) => void
  /** Checkpoints counted so far: interrupt-handler calls since the prelude began (decision 0145). */
  readonly work: () => number
  /** The ending an error handle of this context stands for: the meter's stop, memory, or the words raised. */
  readonly fail: (error: QuickJSHandle) => RunOutcome
  /**
   * Ends the run the context served: frees the runner, the context and the runtime, or, for a kept context, puts
   * its module's memory and the meter back as they were before any run (decision 0235).
   */
  readonly dispose: () => void
}

/**
 * Opens a fresh runtime and context of `module` and evaluates the prelude (function-formats.md §1.9) under
 * `bounds`, with no deadline: the prelude is ours and ends. Memory, stack and the work budget are set again by
 * `limit` when the run starts. The work meter counts from the prelude on, as a context opened for its run would,
 * so a context readied early gives the same counts. Gives the run's ending instead when the prelude cannot load
 * under `bounds` (a memory limit too small for it).
 *
 * With `kept`, the layout of a module just instantiated in which nothing else is opened, the context is kept: its
 * module's memory is copied once the prelude has run, and `dispose` writes the copy back, so the same context is
 * fresh again for the next run, byte for byte as no run had touched it (decision 0235).
 */
export const openFreshContext = (
  module: QuickJSWASMModule,
  bounds: SandboxBounds,
  kept?: MemoryLayout
): FreshContext | RunOutcome => {
  const runtime: QuickJSRuntime = module.newRuntime()
  let work = 0
  let budget = bounds.work
  let memoryBytes = bounds.memoryBytes
  let deadline = Number.POSITIVE_INFINITY
  let stopped: "work" | "deadline" | undefined
  const limit = (next: SandboxBounds, until: number) => {
    runtime.setMemoryLimit(next.memoryBytes)
    runtime.setMaxStackSize(next.stackBytes)
    budget = next.work
    memoryBytes = next.memoryBytes
    deadline = until
  }
  limit(bounds, deadline)
  runtime.setInterruptHandler(() => {
    work++
    if (work > budget) stopped ??= "work"
    else if (Date.now() >= deadline) stopped ??= "deadline"
    return stopped !== undefined
  })
  const context = runtime.newContext()
  const fail = (error: QuickJSHandle): RunOutcome => {
    if (stopped === "deadline") return { _tag: "Deadline", work }
    if (stopped === "work") {
      return { _tag: "Unworkable", detail: `the program used its work budget of ${budget} checkpoints`, work }
    }
    const message = context.typeof(error) === "object" ? context.getProp(error, "message").consume(context.dump) : ""
    if (String(message).includes("out of memory")) {
      return outOfMemory(memoryBytes, work)
    }
    return { _tag: "Unworkable", detail: cutText(`the program cannot run: ${String(message) || "it raised"}`), work }
  }
  const close = () => {
    context.dispose()
    runtime.dispose()
  }
  const failed = (error: QuickJSHandle) => {
    const outcome = fail(error)
    error.dispose()
    close()
    return outcome
  }
  const loaded = context.evalCode(sandboxPrelude, "prelude.js")
  if (loaded.error !== undefined) return failed(loaded.error)
  const words = context.newString(wordsScript)
  const made = context.callFunction(loaded.value, context.undefined, words)
  words.dispose()
  loaded.value.dispose()
  if (made.error !== undefined) return failed(made.error)
  const runner = made.value
  const opened = { context, runner, limit, work: () => work, fail }
  if (kept === undefined) {
    return {
      ...opened,
      dispose: () => {
        runner.dispose()
        close()
      }
    }
  }
  const image = captureImage(module, kept)
  const preludeWork = work
  return {
    ...opened,
    dispose: () => {
      image.restore()
      work = preludeWork
      stopped = undefined
      limit(bounds, Number.POSITIVE_INFINITY)
    }
  }
}

/** Whether `opened` is a context ready for its run rather than the ending of one that could not open. */
export const isFresh = (opened: FreshContext | RunOutcome): opened is FreshContext => !("_tag" in opened)
