import { type DefinitionFormat, Formats, invalidAt, reject } from "@runledger/core"
import { Effect, Either, Layer } from "effect"

/**
 * A test format for the definition and run lifecycle, standing in for a function type: its document is any text
 * (a line `BROKEN` is an issue at that line), and a run echoes its input, or ends as the input asks:
 * `{ refuse: true }` → invalid_input, `{ flaky: true }` → unavailable, `{ die: true }` → a defect.
 */
export const echoFormat = (type: DefinitionFormat["type"], finishesLater = false): DefinitionFormat => ({
  type,
  read: (source) => {
    const lines = source.split("\n")
    const broken = lines.indexOf("BROKEN")
    if (broken >= 0)
      return Either.left([{ line: broken + 1, column: 1, pointer: "/body", message: "this line is broken" }])
    return Either.right({
      description: lines[0],
      warnings: [],
      finishesLater,
      callsTools: false,
      ...(source.includes("shape: series") ? { shape: "series" as const } : {})
    })
  },
  checkAtSave: () => Effect.succeed([]),
  run: (run) => {
    const input = run.input as Record<string, unknown> | null
    if (finishesLater) return Effect.succeed({ _tag: "Started" } as const)
    if (input?.refuse === true)
      return Effect.succeed({ _tag: "Rejected", rejection: invalidAt("/input/refuse", "refuse: is refused.") } as const)
    if (input?.flaky === true)
      return Effect.succeed({ _tag: "Rejected", rejection: reject("unavailable", "Not now.") } as const)
    if (input?.die === true) return Effect.die(new Error("the echo format broke"))
    return Effect.succeed({
      _tag: "Succeeded",
      output: { echo: run.input, at: run.startedAt },
      record: { version: run.version }
    } as const)
  }
})

/** Formats holding the echo format for computation and a later-finishing one for interaction. */
export const echoFormats = Layer.succeed(
  Formats,
  new Map([
    ["computation", echoFormat("computation")],
    ["interaction", echoFormat("interaction", true)]
  ])
)
