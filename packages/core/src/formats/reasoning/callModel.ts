import { Clock, Duration, Effect, Either } from "effect"
import type { Rejection } from "../../domain/Rejection.js"
import type { Models } from "../../models/Models.js"
import { type ModelAnswer, ModelCallFailed, type ModelRequest, type ModelToolCall } from "../../ports/ModelProvider.js"
import type { FormatFact } from "../DefinitionFormat.js"
import { type CallAsked, modelCallAnswered, modelCallFailed, modelCallStarted } from "./modelCallFacts.js"
import { redacted } from "./modelFailureRejection.js"

/** What a run's model calls share: the models, how facts are recorded, the output mode and the run's deadline. */
export interface CallContext {
  readonly models: Models["Type"]
  readonly record: (facts: ReadonlyArray<FormatFact>) => Effect.Effect<void, Rejection>
  readonly json: boolean
  /** When the whole run must have ended, in milliseconds since the epoch. */
  readonly runDeadline: number
  /** Keeps the arguments of the tool calls an answer asks for, answering their digests by call id. */
  readonly keepArguments: (calls: ReadonlyArray<ModelToolCall>) => Effect.Effect<ReadonlyMap<string, string>, Rejection>
}

/** How long one model call may take, all its attempts included: 60 s + 25 ms a token of `max_output_tokens`. */
export const callLimitMillis = (maxOutputTokens: number): number => 60_000 + 25 * maxOutputTokens

/** The waits before the second and third attempts, unless the provider asks for less than a minute. */
const retryWaits = [2_000, 4_000]

/** The longest delay a provider may ask for and still be waited out within one call. */
const longestAskedWait = 60_000

const retried = (failure: ModelCallFailed) => failure.kind === "rate_limited" || failure.kind === "provider_unavailable"

/**
 * Sends one request and records it: `model_call_started`, then `model_call_answered` or `model_call_failed`. Only
 * the wait for the provider may be interrupted (a cancel): the call is then ended `model_call_failed` because
 * `interrupted`, so no call is left started without an end (function-formats.md §2.9).
 */
const sendRecorded = (context: CallContext, asked: CallAsked, attempt: number, request: ModelRequest) =>
  Effect.uninterruptibleMask((restore) =>
    Effect.gen(function* () {
      const sent = yield* Clock.currentTimeMillis
      const took = Effect.map(Clock.currentTimeMillis, (now) => now - sent)
      yield* context.record([modelCallStarted(asked, attempt)])
      const outcome = yield* restore(Effect.either(context.models.call(request))).pipe(
        Effect.onInterrupt(() =>
          Effect.flatMap(took, (duration) =>
            Effect.ignore(context.record([modelCallFailed(asked, attempt, "interrupted", duration)]))
          )
        )
      )
      const duration = yield* took
      if (Either.isRight(outcome)) {
        const digests = yield* context.keepArguments(outcome.right.toolCalls)
        yield* context.record([modelCallAnswered(asked, attempt, outcome.right, context.json, duration, digests)])
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
    for (let attempt = 1; ; attempt++) {
      const sent = yield* Clock.currentTimeMillis
      if (sent >= deadline)
        return Either.left(new ModelCallFailed({ kind: "timed_out", providerMessage: "the call's deadline passed" }))
      const outcome = yield* sendRecorded(context, asked, attempt, { ...request, timeoutMs: deadline - sent })
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
