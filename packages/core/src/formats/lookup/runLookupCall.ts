import { Effect, Either, Layer, Option } from "effect"
import { RuntimeConfig, type RuntimeSettings } from "../../config/RuntimeConfig.js"
import { conflict, invalidInput, type Rejection, reject } from "../../domain/Rejection.js"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import { ToolServers } from "../../ports/ToolServers.js"
import { answerDocument } from "../../tools/answerDocument.js"
import { callTool } from "../../tools/callTool.js"
import { offeredTool } from "../../tools/offeredTool.js"
import { keepsContent } from "../../tools/servingServers.js"
import { toolNotReadOnly } from "../../tools/toolRefusals.js"
import type { FormatEnding, FormatRun } from "../DefinitionFormat.js"
import { delayKept } from "../delayKept.js"
import { callArgumentsBound } from "../interaction/argumentsAtSave.js"
import { momentsOf } from "../interaction/renderTemplate.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"
import type { LookupCall } from "./readLookup.js"
import { renderArguments } from "./renderArguments.js"
import { valueAt } from "./valueAt.js"

const rejected = (rejection: Rejection, record?: unknown): FormatEnding =>
  record === undefined ? { _tag: "Rejected", rejection } : { _tag: "Rejected", rejection, record }

/** A recorder that records nothing, for a format run alone. */
const recordingNothing = { record: () => Effect.void, keep: () => Effect.void }

/**
 * Runs a `call` (function-formats.md §5.2.4, and §3.8 for an interaction's): the arguments rendered from the
 * input; the server opened and listed, refusing before anything is sent a tool not offered (`tool_not_offered`), a
 * server that cannot be asked (`tool_server_failed`) or, for a lookup (`wants: "reads"`), a tool no longer marked
 * reads (`tool_not_read_only`); the call recorded under the run's id and sent with it; a call sent that could not
 * finish `tools_unfinished` when its tool reads, else `conflict`/`effect_unknown` (an interaction's call to a tool
 * that acts); the value at `read` checked against the output schema and answered.
 */
export const runLookupCall = (
  run: FormatRun,
  call: LookupCall,
  outputSchema: unknown,
  settings: RuntimeSettings,
  port: Option.Option<ToolServers["Type"]>,
  wants: "reads" | "acts"
): Effect.Effect<FormatEnding> =>
  Effect.gen(function* () {
    const { today, now } = momentsOf(run.startedAt)
    const rendered = renderArguments(call.with, call.templates, { input: run.input, today, now })
    if (Either.isLeft(rendered)) {
      const { pointer, stop } = rendered.left
      return rejected(
        invalidInput([
          {
            pointer: stop.field?.startsWith("input.") ? `/${stop.field.replaceAll(".", "/")}` : "/input",
            detail: `The template at ${pointer}, at its line ${stop.line}: ${stop.words}.`
          }
        ])
      )
    }
    const args = rendered.right as Record<string, unknown>
    if (jsonBytes(args) > callArgumentsBound)
      return rejected(conflict("The call's arguments hold more than 16 KiB as JSON once rendered.", "unworkable"))
    const tools = Option.match(port, {
      onNone: () => ToolServers.none,
      onSome: (service) => Layer.succeed(ToolServers, service)
    })
    const services = Layer.merge(tools, Layer.succeed(RuntimeConfig, settings))
    const offered = yield* Effect.either(
      offeredTool(run.playbook?.org ?? "", run.playbook?.id ?? "", call.server, call.tool).pipe(
        Effect.provide(services)
      )
    )
    if (Either.isLeft(offered))
      return rejected(
        offered.left,
        offered.left.retryAfter === undefined
          ? undefined
          : { server: call.server, tool: call.tool, ...delayKept(offered.left) }
      )
    const { entry, tool } = offered.right
    const readOnly = tool.mark === "reads"
    if (wants === "reads" && !readOnly)
      return rejected(
        toolNotReadOnly(call.server, call.tool, tool.mark, "fix the definition, or have the operator mark it reads")
      )
    const recorder =
      run.record !== undefined && run.keep !== undefined ? { record: run.record, keep: run.keep } : recordingNothing
    const made = yield* Effect.either(
      callTool(recorder, {
        server: call.server,
        tool: call.tool,
        arguments: args,
        runId: run.runId,
        callId: run.runId,
        number: 1,
        readOnly,
        keepContent: keepsContent(entry)
      }).pipe(Effect.provide(tools))
    )
    const unfinished = (because: string, detail: string, retryAfterMs?: number) =>
      rejected(
        readOnly
          ? reject("unavailable", `The call to ${call.server}/${call.tool} was sent and could not finish: ${detail}`, {
              kind: "tools_unfinished",
              because
            })
          : reject(
              "conflict",
              `The call to ${call.server}/${call.tool} was sent and could not finish: ${detail} The tool acts, so whether it changed something is not known; check before running it again.`,
              { kind: "effect_unknown", because }
            ),
        {
          server: call.server,
          tool: call.tool,
          ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs })
        }
      )
    if (Either.isLeft(made)) return unfinished("server_failed", made.left.detail, delayKept(made.left).retry_after_ms)
    const outcome = made.right
    if (outcome._tag === "Failed") {
      const { failure } = outcome
      if (failure.because === "arguments_refused")
        return rejected(conflict(`The tool refused the arguments: ${failure.detail}`, "unworkable"))
      return unfinished("server_failed", failure.detail, failure.retryAfterMs)
    }
    const { answer } = outcome
    const record = {
      server: call.server,
      tool: call.tool,
      ...(call.read === undefined ? {} : { read: call.read }),
      mark: tool.mark,
      duration_ms: answer.durationMs,
      result_bytes: outcome.resultBytes
    }
    if (answer.isError) return unfinished("tool_error", "the tool answered with an error of its own.")
    const document = answerDocument(answer)
    if (!document.found)
      return rejected(conflict("The tool answered no document: no structured content and no text.", "unworkable"))
    const value = call.read === undefined ? Option.some(document.value) : valueAt(document.value, call.read)
    if (Option.isNone(value))
      return rejected(conflict(`The tool's answer holds nothing at ${call.read}.`, "unworkable"), record)
    const issues = Either.match(schemaValidator(outputSchema), {
      onLeft: () => [],
      onRight: (validate) => validate(value.value, "/output")
    })
    if (issues.length > 0)
      return rejected(
        reject("conflict", "The value the tool answered does not fit the output schema.", {
          kind: "unworkable",
          errors: issues
        }),
        record
      )
    return { _tag: "Succeeded", output: value.value, record }
  })
