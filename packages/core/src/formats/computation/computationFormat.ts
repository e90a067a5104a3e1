import { Effect, Either } from "effect"
import { reject } from "../../domain/Rejection.js"
import { Sandbox } from "../../ports/Sandbox.js"
import type { DefinitionFormat, SourceIssue } from "../DefinitionFormat.js"
import { finishIssues } from "../document/finishIssues.js"
import { readComputation } from "./readComputation.js"
import { runComputation } from "./runComputation.js"
import { programDeclarations } from "./schemaTypes.js"

/** Seconds after which a save refused for want of a ready checker may be sent again. */
const checkerRetrySeconds = 2

/**
 * The computation function format (function-formats.md §4): reads and checks documents, type-checks the module
 * at save in the sandbox's checker, and runs it in the sandbox.
 */
export const computationFormat = (sandbox: Sandbox["Type"]): DefinitionFormat => ({
  type: "computation",
  read: (source) => Either.map(readComputation(source), (read) => read.document),
  checkAtSave: (source, document) => {
    const read = readComputation(source)
    if (Either.isLeft(read)) return Effect.succeed(read.left)
    const { body, bodyLine } = read.right
    const bodyIssue = (line: number, column: number, message: string): SourceIssue => ({
      line,
      column,
      pointer: "/body",
      message
    })
    return sandbox
      .check({
        source: body,
        firstLine: bodyLine,
        declarations: programDeclarations(document.inputSchema, document.outputSchema)
      })
      .pipe(
        Effect.map((issues) => finishIssues(issues.map((issue) => bodyIssue(issue.line, issue.column, issue.message)))),
        Effect.catchTags({
          CheckerTimedOut: (late) =>
            Effect.succeed([
              bodyIssue(
                bodyLine,
                1,
                `the type check did not finish within ${late.seconds} s; make the program or its types smaller`
              )
            ]),
          CheckerUnavailable: () =>
            Effect.fail(
              reject("unavailable", "No type checker is ready to check the program; send the save again.", {
                retryAfter: checkerRetrySeconds
              })
            ),
          SandboxBroke: (broke) =>
            Effect.fail(
              reject("unavailable", `The type checker stopped (${broke.detail}); send the save again.`, {
                retryAfter: checkerRetrySeconds
              })
            )
        })
      )
  },
  run: (run) => runComputation(run).pipe(Effect.provideService(Sandbox, sandbox)),
  // A run is deterministic and changes nothing outside its stream: it runs first, and `run_started` is appended
  // with its ending in one append at the stream's version (decision 0234).
  recordsWithStart: true
})
