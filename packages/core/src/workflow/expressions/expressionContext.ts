import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten-core"
import { captureImage, type MemoryLayout } from "../../sandbox/memoryImage.js"
import { expressionPrelude } from "./expressionPrelude.js"

/** Bytes of QuickJS memory one expression's runtime may allocate (workflow-format.md §6.4). */
export const expressionMemoryBytes = 64 * 1024 * 1024

/** Bytes of QuickJS stack one expression may use (§6.4, in-thread): ≈1,480 self-calls. */
export const expressionStackBytes = 256 * 1024

/** What stopped the interrupt handler's run, if it did. */
export type Stop = "work" | "deadline"

/** The meter's reading: checkpoints counted from the prelude on, and what stopped the run, if anything did. */
export interface MeterReading {
  readonly work: number
  readonly stop: Stop | undefined
}

/**
 * A QuickJS runtime and context with the expression prelude evaluated and its runner made, serving one
 * evaluation at a time: either new for the evaluation, or kept and put back to the bytes it had before any
 * evaluation (ADR 0264, as the computation sandbox keeps its context since ADR 0235).
 */
export interface ExpressionContext {
  readonly context: QuickJSContext
  /** The prelude's runner: `(expression, variablesJson, now) => "J…" | "U…" | "E…"`. */
  readonly runner: QuickJSHandle
  /** Checkpoints the prelude and the runner's making took: where every evaluation's count begins. */
  readonly preludeWork: number
  /** Sets the evaluation's work budget and deadline, which the interrupt handler enforces. */
  readonly arm: (budget: number, deadline: number) => void
  readonly meter: () => MeterReading
  /**
   * Ends the evaluation it served, whose handles are all freed: frees the runtime, or, for a kept context, writes
   * its module's memory back as it was right after the prelude and resets the meter.
   */
  readonly dispose: () => void
}

/**
 * Opens a runtime and context of `module` under §6.4's memory and stack bounds, evaluates the expression prelude
 * and makes its runner, counting checkpoints from the prelude on with no budget or deadline (the prelude is ours
 * and ends). With `kept`, the layout of a module just instantiated in which nothing else was opened, the
 * module's memory is copied then, and `dispose` writes it back (ADR 0264). A prelude that cannot load is a defect.
 */
export const openExpressionContext = (module: QuickJSWASMModule, kept?: MemoryLayout): ExpressionContext => {
  const runtime = module.newRuntime()
  runtime.setMemoryLimit(expressionMemoryBytes)
  runtime.setMaxStackSize(expressionStackBytes)
  let work = 0
  let budget = Number.POSITIVE_INFINITY
  let deadline = Number.POSITIVE_INFINITY
  let stop: Stop | undefined
  runtime.setInterruptHandler(() => {
    work++
    if (work > budget) stop ??= "work"
    else if (Date.now() >= deadline) stop ??= "deadline"
    return stop !== undefined
  })
  const context = runtime.newContext()
  const prelude = context.unwrapResult(context.evalCode(expressionPrelude, "prelude.js"))
  const runner = context.unwrapResult(context.callFunction(prelude, context.undefined))
  prelude.dispose()
  const preludeWork = work
  const opened = {
    context,
    runner,
    preludeWork,
    arm: (until: number, at: number) => {
      budget = until
      deadline = at
    },
    meter: () => ({ work, stop })
  }
  if (kept === undefined) {
    return {
      ...opened,
      dispose: () => {
        runner.dispose()
        context.dispose()
        runtime.dispose()
      }
    }
  }
  const image = captureImage(module, kept)
  return {
    ...opened,
    dispose: () => {
      image.restore()
      work = preludeWork
      stop = undefined
      budget = Number.POSITIVE_INFINITY
      deadline = Number.POSITIVE_INFINITY
    }
  }
}
