import { Clock, Duration, Effect, Either } from "effect"
import { RuntimeConfig, type RuntimeSettings } from "../config/RuntimeConfig.js"
import type { Rejection } from "../domain/Rejection.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import { callArgumentsBound } from "../formats/interaction/argumentsAtSave.js"
import { deliveryArguments, howToAnswer } from "../formats/interaction/deliveryArguments.js"
import { momentsOf } from "../formats/interaction/renderTemplate.js"
import { type DraftFact, runDecider } from "../ledger/decide.js"
import type { ContentStore } from "../ports/ContentStore.js"
import { ToolServers } from "../ports/ToolServers.js"
import { keepTexts, sha256Of } from "../tools/keepTexts.js"
import { allowsTool, keepsContent, servingServers } from "../tools/servingServers.js"
import { contentOwner } from "../tools/toolCallFacts.js"
import type { DriveServices } from "../workflow/run/driveRun.js"
import { DeliverySettings, type DeliverySettingsShape } from "./DeliverySettings.js"
import { type DeliveryCall, deliveryCall } from "./deliveryCall.js"
import {
  type AttemptEnding,
  attemptEndingDrafts,
  deliveryStep,
  nextAttemptAt,
  requestMetadata
} from "./deliveryStep.js"
import { foldRequest, noRequest, type RequestState } from "./foldRequest.js"
import type { DeliveryStarted } from "./interactionFacts.js"
import { type RunAddress, runAddressOf } from "./runAddress.js"

/** What the services of a delivery are: the ledger and ids to record, the content store, the tool servers and settings. */
export type DeliveryServices = DriveServices | ToolServers | RuntimeConfig

/** How long before its `lost_at` an attempt's own instance cuts it, so its own ending lands before another's `lost`. */
const cutMargin = 1_000

/** The facts that open an attempt, and the call to make when it is to be sent (none when it was refused at once). */
interface Opening {
  readonly facts: ReadonlyArray<DraftFact>
  readonly call?: DeliveryCall
}

/**
 * The facts that open attempt `number` (ADR 0192): `delivery_started` with the size and digest of the arguments
 * (kept first when the server's entry keeps content) and `lost_at`; beside it, when nothing can be sent,
 * `delivery_refused`: the server no longer serves the playbook or the tool is no longer allowed
 * (`tool_server_not_configured`, `tool_not_allowed`), or the arguments no longer render or hold more than 16 KiB.
 */
const openAttempt = (
  state: RequestState,
  step: Extract<ReturnType<typeof deliveryStep>, { _tag: "Attempt" }>,
  where: RunAddress,
  now: number,
  config: RuntimeSettings,
  settings: DeliverySettingsShape
): Effect.Effect<Opening, Rejection, ContentStore | ToolServers> =>
  Effect.gen(function* () {
    const { number, deliver } = step
    const requested = state.requested!
    const record = state.record!
    const entry = servingServers(config, where.org, where.playbook).find(
      (candidate) => candidate.name === deliver.server
    )
    const keepFor = entry !== undefined && keepsContent(entry) ? contentOwner(where.org, where.playbook) : undefined
    const metadata = requestMetadata(state, step.causedBy, now)
    const started = (sent?: string): DraftFact => ({
      type: "delivery_started",
      data: {
        number,
        server: deliver.server,
        tool: deliver.tool,
        ...(sent === undefined ? {} : { arguments_bytes: utf8Bytes(sent) }),
        ...(sent === undefined || keepFor === undefined ? {} : { arguments_sha256: sha256Of(sent) }),
        content_kept: sent !== undefined && keepFor !== undefined,
        lost_at: new Date(now + settings.attemptMillis).toISOString()
      } satisfies DeliveryStarted,
      metadata
    })
    const refusedAtOnce = (ending: AttemptEnding): Opening => ({
      facts: [started(), ...attemptEndingDrafts(state, ending, step.causedBy, now)]
    })
    if (entry === undefined || !allowsTool(entry, deliver.tool))
      return refusedAtOnce({
        type: "delivery_refused",
        data: {
          number,
          because: "unworkable",
          reason: entry === undefined ? "tool_server_not_configured" : "tool_not_allowed",
          detail:
            entry === undefined
              ? `The tool server ${deliver.server} is no longer set up for the playbook ${where.playbook}.`
              : `The operator no longer allows the tool ${deliver.server}/${deliver.tool}.`
        }
      })
    const { today } = momentsOf(Date.parse(record.requested_at))
    const rendered = deliveryArguments(deliver, {
      input: state.input,
      today,
      now: record.requested_at,
      to: record.to,
      message: record.message,
      run_id: where.runId,
      function: state.requestFact!.metadata.definition?.name ?? "",
      expires_at: record.expires_at,
      answer_schema: record.answer_schema,
      how_to_answer: howToAnswer({
        ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
        org: where.org,
        playbook: where.playbook,
        runId: where.runId,
        expiresAt: record.expires_at,
        takesAnswer: requested.takes_answer
      })
    })
    if (Either.isLeft(rendered))
      return refusedAtOnce({
        type: "delivery_refused",
        data:
          rendered.left._tag === "TooLarge"
            ? {
                number,
                because: "too_large",
                detail: `The arguments render ${rendered.left.bytes} bytes as JSON; a call holds at most ${callArgumentsBound}.`
              }
            : {
                number,
                because: "unworkable",
                reason: "arguments_unrenderable",
                detail: `The template at ${rendered.left.pointer} stopped: ${rendered.left.words}.`
              }
      })
    const sent = (yield* ToolServers).scrub(JSON.stringify(rendered.right))
    if (keepFor !== undefined) yield* keepTexts(keepFor, [sent])
    return {
      facts: [started(sent)],
      call: {
        number,
        server: deliver.server,
        tool: deliver.tool,
        arguments: rendered.right,
        runId: where.runId,
        cutAt: now + settings.attemptMillis - Math.min(cutMargin, settings.attemptMillis / 10),
        ...(deliver.sent === undefined ? {} : { sent: deliver.sent }),
        ...(keepFor === undefined ? {} : { keepFor })
      }
    }
  })

/**
 * Moves the delivery of the request on `stream` as far as it goes now (function-formats.md §3.3, ADR 0192), each
 * step a decision on the run's stream at the version read, so of several instances exactly one records it: an
 * attempt left open past its `lost_at` is recorded failed (`lost`); a due attempt is opened, its call made
 * (cut at its `lost_at`) and its ending recorded, with the time of the next attempt for a failure and a
 * notification's run ended once delivered or undeliverable. It returns when nothing more is due now.
 */
export const deliverDue = (stream: string): Effect.Effect<void, Rejection, DeliveryServices> =>
  Effect.gen(function* () {
    const where = runAddressOf(stream)
    if (where === undefined) return
    const config = yield* RuntimeConfig
    const settings = yield* DeliverySettings
    const decide = <A>(
      choose: (
        state: RequestState,
        now: number
      ) => Effect.Effect<{ facts: ReadonlyArray<DraftFact>; call?: A }, Rejection, ContentStore | ToolServers>
    ) =>
      Effect.gen(function* () {
        let call: A | undefined
        const { facts } = yield* runDecider({
          stream,
          initial: noRequest,
          fold: foldRequest,
          decide: (state) =>
            Effect.flatMap(Clock.currentTimeMillis, (now) =>
              Effect.map(choose(state, now), (chosen) => {
                call = chosen.call
                return chosen.facts
              })
            ),
          by: `playbook:${where.playbook}`,
          what: `the run ${where.runId}`
        })
        return { recorded: facts.length > 0, call }
      })

    for (;;) {
      const opened = yield* decide<DeliveryCall>((state, now) => {
        const step = deliveryStep(state, now)
        if (step._tag === "None") return Effect.succeed({ facts: [] })
        if (step._tag === "Attempt")
          return Effect.map(openAttempt(state, step, where, now, config, settings), (opening) => ({
            facts: opening.facts,
            ...(opening.call === undefined ? {} : { call: opening.call })
          }))
        const { attempt } = step
        const next = nextAttemptAt(attempt.number, now, undefined, settings)
        return Effect.succeed({
          facts: attemptEndingDrafts(
            state,
            {
              type: "delivery_failed",
              data: {
                number: attempt.number,
                because: "lost",
                detail: `The attempt did not end by ${attempt.started.lost_at}: the instance making it stopped or lost the ledger, so the tool may have been called.`,
                ...(next === undefined ? {} : { next_attempt_at: next })
              }
            },
            attempt.startedId,
            now
          )
        })
      })
      if (!opened.recorded) return
      const call = opened.call
      if (call === undefined) continue
      const ending = yield* deliveryCall(call).pipe(
        Effect.timeoutTo({
          duration: Duration.millis(Math.max(0, call.cutAt - (yield* Clock.currentTimeMillis))),
          onSuccess: (made): AttemptEnding => made,
          onTimeout: (): AttemptEnding => ({
            type: "delivery_failed",
            data: {
              number: call.number,
              because: "timed_out",
              detail: `The attempt did not finish within ${settings.attemptMillis / 1000} seconds.`
            }
          })
        })
      )
      yield* decide<never>((state, now) => {
        const attempt = state.attempts?.find((candidate) => candidate.number === call.number)
        if (attempt === undefined || attempt.ending !== undefined) return Effect.succeed({ facts: [] })
        const waits = state.run?.status === "started" && state.answer === undefined && state.cancel === undefined
        const next =
          ending.type === "delivery_failed" && waits
            ? nextAttemptAt(call.number, now, ending.data.retry_after_ms, settings)
            : undefined
        const timed: AttemptEnding =
          ending.type === "delivery_failed"
            ? { ...ending, data: { ...ending.data, ...(next === undefined ? {} : { next_attempt_at: next }) } }
            : ending
        return Effect.succeed({ facts: attemptEndingDrafts(state, timed, attempt.startedId, now) })
      })
    }
  })
