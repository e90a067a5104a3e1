import { Effect, Either } from "effect"
import { conflict, invalidInput, reject } from "../../domain/Rejection.js"
import { utf8Bytes } from "../../domain/utf8Bytes.js"
import { type ProgramUnworkable, Sandbox, type SandboxResult } from "../../ports/Sandbox.js"
import { recentMemo } from "../../sandbox/recentMemo.js"
import type { FormatEnding, FormatRun } from "../DefinitionFormat.js"
import { schemaValidator, type ValidateValue } from "../jsonSchema/SchemaValidator.js"
import { readComputation } from "./readComputation.js"

/** How long a computation run may take from its start, waiting for a worker included (function-formats.md §4.6). */
export const computationDeadlineMillis = 10_000

/** How many output-schema issues an unworkable ending names. */
const shownOutputIssues = 3

const validatorOf = (schema: unknown): ValidateValue | undefined =>
  schema === undefined ? undefined : Either.getOrUndefined(schemaValidator(schema))

/** The document of a run's source, read at its first run and kept (the last 64): a saved version never changes. */
const readForRun = recentMemo(readComputation, 64)

const unworkable = (detail: string): FormatEnding => ({ _tag: "Rejected", rejection: conflict(detail, "unworkable") })

/**
 * Carries out a computation run (function-formats.md §4.4, §4.5): the input schema (`invalid_input`, kind
 * `input_schema`, pointers under `/input`), the program in the sandbox with `Date` pinned to the run's start, the
 * output schema (a mismatch is `conflict`/`unworkable` naming the first 3 issues), and the record
 * `{ language, work, duration_ms, input_bytes, output_bytes }`. The deadline is 10 s of wall-clock time from
 * when the run reaches the format; a sandbox that breaks ends the run `internal` (the spec's `failed`).
 */
export const runComputation = (run: FormatRun): Effect.Effect<FormatEnding, never, Sandbox> =>
  Effect.gen(function* () {
    const began = Date.now()
    const read = readForRun(run.source)
    if (Either.isLeft(read)) {
      return {
        _tag: "Rejected",
        rejection: reject("internal", "The saved document of this version no longer reads.")
      } as const
    }
    const { document, body, bodyLine } = read.right
    const inputIssues = validatorOf(document.inputSchema)?.(run.input, "/input") ?? []
    if (inputIssues.length > 0)
      return { _tag: "Rejected", rejection: invalidInput(inputIssues, "input_schema") } as const
    const sandbox = yield* Sandbox
    const ran = yield* Effect.either(
      sandbox.run({
        source: body,
        firstLine: bodyLine,
        input: run.input,
        now: run.startedAt,
        deadline: began + computationDeadlineMillis
      })
    )
    if (Either.isLeft(ran)) {
      const failure = ran.left
      switch (failure._tag) {
        case "ProgramUnworkable":
          return unworkable((failure as ProgramUnworkable).detail)
        case "SandboxDeadline":
          return {
            _tag: "Rejected",
            rejection: reject(
              "unavailable",
              `The run did not finish within its ${computationDeadlineMillis / 1000} s deadline: ${failure.detail}.`
            )
          } as const
        case "SandboxBroke":
          return {
            _tag: "Rejected",
            rejection: reject("internal", `The sandbox broke while running the program: ${failure.detail}.`)
          } as const
      }
    }
    const result: SandboxResult = ran.right
    const outputIssues = validatorOf(document.outputSchema)?.(result.output, "/output") ?? []
    if (outputIssues.length > 0) {
      const shown = outputIssues.slice(0, shownOutputIssues)
      return {
        _tag: "Rejected",
        rejection: reject(
          "conflict",
          `The output does not fit the output schema: ${shown.map((issue) => issue.detail).join(" ")}`,
          {
            kind: "unworkable",
            errors: invalidInput(shown).errors!
          }
        )
      } as const
    }
    const record = {
      language: "typescript",
      work: result.work,
      duration_ms: Date.now() - began,
      input_bytes: utf8Bytes(JSON.stringify(run.input) ?? ""),
      output_bytes: result.outputBytes
    }
    return { _tag: "Succeeded", output: result.output, record } as const
  })
