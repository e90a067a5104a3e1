import { Clock, Duration, Effect, Either } from "effect"
import type { Rejection } from "../../domain/Rejection.js"
import type { Models } from "../../models/Models.js"
import { type ModelAnswer, ModelCallFailed, type ModelRequest, type ModelToolCall } from "../../ports/ModelProvider.js"
import { type KeptJson, keptJson } from "../../tools/keepTexts.js"
import type { FormatFact } from "../DefinitionFormat.js"
import {
  type CallAsked,
  messagesShown,
  modelCallAnswered,
  modelCallFailed,
  modelCallStarted,
  responseShown
} from "./modelCallFacts.js"
import { redacted } from "./modelFailureRejection.js"

/**
 * What a run's model calls share: the models, how facts are recorded and texts kept, the output mode and the run's
 * deadline.
 */
export interface CallContext {
  readonly models: Models["Type"]
  readonly record: (facts: ReadonlyArray<FormatFact>) => Effect.Effect<void, Rejection>
  /** Keeps texts in the playbook's content store, before the facts that name them. */
  readonly keep: (texts: ReadonlyArray<string>) => Effect.Effect<void, Rejection>
  readonly json: boolean
  /** When the whole run must have ended, in milliseconds since the epoch. */
  readonly runDeadline: number
  /** The tool calls an answer asks for as events show them (the toolbox's `shownCalls`). */
  readonly shownCalls: (calls: ReadonlyArray<ModelToolCall>) => unknown
}

/** How long one model call may take, all its attempts included: 60 s + 25 ms a token of `max_output_tokens`. */
export const callLimitMillis = (maxOutputTokens: number): number => 60_000 + 25 * maxOutputTokens

/** The waits before the second and third attempts, unless the provider asks for less than a minute. */
const retryWaits = [2_000, 4_000]

/** The longest delay a provider may ask for and still be waited out within one call. */
const longestAskedWait = 60_000

const retried = (failure: ModelCallFailed) => failure.kind === "rate_limited" || failure.kind === "provider_unavailable"

/**
 * Sends one request and records it: `model_call_started`, then `model_call_answered` or `model_call_failed`, the
 * texts they name kept first (`messages`, kept once for all attempts; the answer's response and tool calls). Only
 * the wait for the provider may be interrupted (a cancel): the call is then ended `model_call_failed` because
 * `interrupted`, so no call is left started without an end (function-formats.md §2.9).
 */
const sendRecorded = (
  context: CallContext,
  asked: CallAsked,
  attempt: number,
  messages: KeptJson,
  request: ModelRequest
) =>
  Effect.uninterruptibleMask((restore) =>
    Effect.gen(function* () {
      const sent = yield* Clock.currentTimeMillis
      const took = Effect.map(Clock.currentTimeMillis, (now) => now - sent)
      yield* context.record([modelCallStarted(asked, attempt, messages)])
      const outcome = yield* restore(Effect.either(context.models.call(request))).pipe(
        Effect.onInterrupt(() =>
          Effect.flatMap(took, (duration) =>
            Effect.ignore(context.record([modelCallFailed(asked, attempt, "interrupted", duration)]))
          )
        )
      )
      const duration = yield* took
      if (Either.isRight(outcome)) {
        const answer = outcome.right
        const kept = {
          response: keptJson(responseShown(answer.text, context.json)),
          toolCalls: keptJson(context.shownCalls(answer.toolCalls))
        }
        yield* context.keep([kept.response.text, kept.toolCalls.text])
        yield* context.record([modelCallAnswered(asked, attempt, answer, duration, kept)])
        return outcome
      }
      const failure = outcome.left
      yield* context.record([
        modelCallFailed(asked, attempt, failure.kind, duration, {
          ...(failure.status === undefined ? {} : { status: failure.status }),
          ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs })
        })
      ])
      return outcome
    })
  )

/**
 * Makes one model call (function-formats.md §2.8, decision F2): each request sent is recorded as
 * `model_call_started` then `model_call_answered` or `model_call_failed`, with its attempt; 408, 409, 429, 5xx and
 * connection failures are tried up to twice more after 2 s then 4 s (or the provider's delay when under a minute),
 * all within the call's deadline, which is also the run's when that is sooner. Right: the answer; Left: the last
 * failure. Fails only when a fact cannot be recorded.
 */
export const callModel = (
  context: CallContext,
  asked: CallAsked,
  request: Omit<ModelRequest, "timeoutMs">
): Effect.Effect<Either.Either<ModelAnswer, ModelCallFailed>, Rejection> =>
  Effect.gen(function* () {
    const began = yield* Clock.currentTimeMillis
    const deadline = Math.min(began + callLimitMillis(request.settings.maxOutputTokens), context.runDeadline)
    const messages = keptJson(messagesShown(asked.system, asked.messages, asked.unrecorded))
    yield* context.keep([messages.text])
    for (let attempt = 1; ; attempt++) {
      const sent = yield* Clock.currentTimeMillis
      if (sent >= deadline)
        return Either.left(new ModelCallFailed({ kind: "timed_out", providerMessage: "the call's deadline passed" }))
      const outcome = yield* sendRecorded(context, asked, attempt, messages, { ...request, timeoutMs: deadline - sent })
      if (Either.isRight(outcome)) return outcome
      const failure = outcome.left
      yield* Effect.logWarning(
        `model call ${asked.number} (attempt ${attempt}) to ${asked.model.resolved} failed: ${failure.kind}${failure.status === undefined ? "" : ` ${failure.status}`}: ${redacted(asked.model.provider, failure.providerMessage)}`
      )
      const asksLong = failure.retryAfterMs !== undefined && failure.retryAfterMs >= longestAskedWait
      if (!retried(failure) || attempt > retryWaits.length || asksLong) return outcome
      const wait = failure.retryAfterMs ?? retryWaits[attempt - 1]!
      if ((yield* Clock.currentTimeMillis) + wait >= deadline) return outcome
      yield* Effect.sleep(Duration.millis(wait))
    }
  })
