import { Effect, Exit, type Layer, ManagedRuntime } from "effect"
import { Sandbox, type SandboxRun } from "../../src/ports/Sandbox.js"
import * as QuickJsSandbox from "../../src/sandbox/QuickJsSandbox.js"

/** A sandbox runtime for a test file, ended after its tests. */
export const sandboxRuntime = (options: QuickJsSandbox.QuickJsSandboxOptions = {}) =>
  ManagedRuntime.make(QuickJsSandbox.layer(options) as Layer.Layer<Sandbox>)

/** A run of a module body starting on line 3 (after a two-line front matter), pinned to 2026-01-02. */
export const runOf = (source: string, input: unknown = null, deadlineMillis = 10_000): SandboxRun => {
  const now = Date.parse("2026-01-02T03:04:05.678Z")
  return { source, firstLine: 3, input, now, deadline: Date.now() + deadlineMillis }
}

/** Runs a program and gives the exit, so a test can look at successes and failures alike. */
export const runExit = (runtime: ReturnType<typeof sandboxRuntime>, run: SandboxRun) =>
  runtime.runPromise(Effect.exit(Effect.flatMap(Sandbox, (sandbox) => sandbox.run(run))))

export { Exit }
