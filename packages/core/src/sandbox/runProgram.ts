import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import { cutText } from "../formats/cutText.js"
import type { FreshContext } from "./freshContext.js"
import type { SandboxBounds } from "./sandboxBounds.js"
import { programFile } from "./sandboxPrelude.js"

/** How one run in QuickJS ended: JSON text, a reason it cannot give one, or the deadline. */
export type RunOutcome =
  | { readonly _tag: "Ran"; readonly json: string; readonly work: number }
  | { readonly _tag: "Unworkable"; readonly detail: string; readonly work: number }
  | { readonly _tag: "Deadline"; readonly work: number }

/** One run to carry out: a prepared script, the input as JSON text, the pinned clock and the deadline. */
export interface ProgramRun {
  readonly script: string
  readonly inputJson: string
  readonly now: number
  readonly deadline: number
  readonly bounds: SandboxBounds
}

/** The ending of a run that met its memory limit of `memoryBytes`. */
export const outOfMemory = (memoryBytes: number, work: number): RunOutcome => ({
  _tag: "Unworkable",
  detail: `the program ran out of memory (${Math.round(memoryBytes / 1024 / 1024)} MiB)`,
  work
})

/** Unwraps a QuickJS result, handing an error handle to `onError` and disposing it. */
const unwrap = (
  result: ReturnType<QuickJSContext["evalCode"]>,
  onError: (error: QuickJSHandle) => RunOutcome
): QuickJSHandle | RunOutcome => {
  if (result.error === undefined) return result.value
  const outcome = onError(result.error)
  result.error.dispose()
  return outcome
}

const isOutcome = (value: QuickJSHandle | RunOutcome): value is RunOutcome => "_tag" in value

/**
 * Runs a prepared program in `fresh`, a context that has served no run, and disposes it (function-formats.md
 * §1.9, §4.4): memory and stack limits, the work meter (one checkpoint per interrupt-handler call, decision W11)
 * and the deadline both enforced by the interrupt handler; the prelude already removed what a program may not
 * reach, and `Date` is pinned to `run.now` as the runner starts. Nothing of the host is exposed to the program.
 * Synchronous: the caller runs it on a worker thread.
 */
export const runProgram = (fresh: FreshContext, run: ProgramRun): RunOutcome => {
  const { context } = fresh
  const handles: Array<QuickJSHandle> = []
  fresh.limit(run.bounds, run.deadline)
  try {
    const factory = unwrap(context.evalCode(run.script, programFile), (error) =>
      raised(context, error, fresh.work(), fresh.fail)
    )
    if (isOutcome(factory)) return factory
    handles.push(factory)
    const input = context.newString(run.inputJson)
    const now = context.newNumber(run.now)
    const outputChars = context.newNumber(run.bounds.outputBytes)
    handles.push(input, now, outputChars)
    const answer = unwrap(
      context.callFunction(fresh.runner, context.undefined, factory, input, now, outputChars),
      fresh.fail
    )
    if (isOutcome(answer)) return answer
    const text = context.getString(answer)
    answer.dispose()
    return settle(text, fresh.work(), run.bounds)
  } finally {
    for (const handle of handles) handle.dispose()
    fresh.dispose()
  }
}

/** A syntax error while loading the program, with its line. */
const raised = (
  context: QuickJSContext,
  error: QuickJSHandle,
  work: number,
  fail: (error: QuickJSHandle) => RunOutcome
) => {
  if (context.typeof(error) !== "object") return fail(error)
  const dumped = context.dump(error) as { name?: string; message?: string; stack?: string }
  const line = new RegExp(`${programFile.replace(".", "\\.")}:(\\d+)`).exec(dumped.stack ?? "")?.[1]
  return raisedOutcome(line, `${dumped.name ?? "Error"}: ${dumped.message ?? ""}`, work)
}

const raisedOutcome = (line: string | undefined, words: string, work: number): RunOutcome => ({
  _tag: "Unworkable",
  detail: cutText(`the program raised${line === undefined || line === "" ? "" : ` on line ${line}`}: ${words}`),
  work
})

/** Reads the runner's answer: `J` JSON, `U` not JSON, `O` too long, `M` no default export, `E` an uncaught error. */
const settle = (text: string, work: number, bounds: SandboxBounds): RunOutcome => {
  const rest = text.slice(1)
  switch (text[0]) {
    case "J": {
      const bytes = utf8Bytes(rest)
      if (bytes > bounds.outputBytes) return tooLarge(bytes, work, bounds)
      return { _tag: "Ran", json: rest, work }
    }
    case "O":
      return tooLarge(Number(rest), work, bounds)
    case "M":
      return { _tag: "Unworkable", detail: "the module has no default export function", work }
    case "E": {
      const newline = rest.indexOf("\n")
      const words = rest.slice(newline + 1)
      if (/^InternalError: out of memory/.test(words)) {
        return outOfMemory(bounds.memoryBytes, work)
      }
      return raisedOutcome(rest.slice(0, newline), words, work)
    }
    default:
      return { _tag: "Unworkable", detail: cutText(`the program's value cannot be JSON: ${rest}`), work }
  }
}

const tooLarge = (bytes: number, work: number, bounds: SandboxBounds): RunOutcome => ({
  _tag: "Unworkable",
  detail: `the output holds at least ${bytes} bytes as JSON; at most ${bounds.outputBytes} are allowed`,
  work
})
