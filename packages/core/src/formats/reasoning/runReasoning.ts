import { Clock, Effect, Either, Option } from "effect"
import { conflict, type Rejection, reject } from "../../domain/Rejection.js"
import type { Models } from "../../models/Models.js"
import type { ModelAnswer, ModelMessage, ModelToolCall, ModelUsage } from "../../ports/ModelProvider.js"
import type { CancelAsked, FormatEnding, FormatRun } from "../DefinitionFormat.js"
import { delayKept } from "../delayKept.js"
import { afterTools } from "./afterTools.js"
import { answerRecord } from "./answerRecord.js"
import { type CallContext, callLimitMillis, callModel } from "./callModel.js"
import { jsonAnswer, repairWords } from "./jsonAnswer.js"
import { addUsage, type CallAsked, settingsShown, usageShown } from "./modelCallFacts.js"
import { exposedWords, modelFailureRejection } from "./modelFailureRejection.js"
import { prepareRun } from "./prepareRun.js"
import { type RecordedToolCall, recordedRun, toolsCalledIn } from "./recordedRun.js"
import { type GoOn, resumeConversation } from "./resumeConversation.js"
import { retellTools } from "./retellTools.js"
import type { Toolbox } from "./Toolbox.js"
import type { ToolReference } from "./toolReferences.js"

/** The input tokens a run's model calls may use together before its final step, unless the settings say. */
const defaultMaxInputTokens = 2_000_000

/** Seconds after which a run that ran out of time or answers may be sent again. */
const laterSeconds = 30

/** How long a whole run may take: 10 minutes, or one model call's limit when longer (function-formats.md §2.6). */
const runLimitMillis = (maxOutputTokens: number): number => Math.max(600_000, callLimitMillis(maxOutputTokens))

/** Opens the tools a run names, before its first model call; `unavailable` when one is not offered. */
export type OpenTools = (run: FormatRun, tools: ReadonlyArray<ToolReference>) => Effect.Effect<Toolbox, Rejection>

/** The ending of a run performed again whose call to a tool that may act was left in flight (decision F3). */
const effectUnknown = (call: RecordedToolCall): Rejection =>
  reject(
    "conflict",
    `The run stopped while it called ${call.server}/${call.tool}, which may change something; whether it did is not known, so check before running it again under a new run id.`,
    { kind: "effect_unknown", because: "interrupted" }
  )

/**
 * The ending of a run performed again whose recorded answer the content store no longer holds (ADR 0345): it
 * cannot go on from it; after a tool call this is `tools_unfinished` or `effect_unknown` (§2.9).
 */
const unreadable = (number: number): Rejection =>
  reject(
    "unavailable",
    `The run cannot go on from what it recorded: the answer of its model call ${number} is not in the playbook's content store.`,
    { because: "no_answer" }
  )

/** The ending of a run cancelled while its loop went on: `cancelled`, with the cancel's kind and reason. */
const cancelledBy = (asked: CancelAsked): Rejection =>
  reject("cancelled", asked.reason ?? `The run was cancelled at the request of ${asked.by}.`, { kind: asked.kind })

/** The run's spending so far: tokens and cost, kept on a rejection once a model answered. */
interface Spending {
  usage: ModelUsage
  cost: number | undefined
  answered: boolean
}

const inputTokensOf = (usage: ModelUsage): number =>
  (usage.input.uncached ?? 0) + (usage.input.cacheRead ?? 0) + (usage.input.cacheWrite ?? 0)

/**
 * A run rejected before its model was called (its model not offered, no provider, its tools not opened): its
 * record keeps only the delay the rejection asks, so a tool server's Retry-After reaches the caller (ADR 0342).
 */
const rejectedBeforeModel = (rejection: Rejection): FormatEnding => {
  const record = delayKept(rejection)
  return { _tag: "Rejected", rejection, ...(record.retry_after_ms === undefined ? {} : { record }) }
}

/**
 * Carries out a reasoning run (function-formats.md §2.7): prepares it (model, options, input, prompt) before
 * anything is called; opens its tools; calls the model, carrying out the tool calls it asks for until it answers
 * without any or a bound forces the final step (25 calls, the run's input tokens); checks a JSON answer, asking once
 * for a `repair`; and ends with the output and the record, or the rejection its failure maps to (§2.8, §2.9), which
 * keeps the run's spending once a model answered and the delay it asks (`retry_after_ms`, ADR 0331). Model and
 * tool calls are recorded as they happen. A cancel asked while the loop goes on stops it: the calls in flight end
 * `interrupted` and the run ends `cancelled` (ADR 0329). A run performed again goes on from what it recorded
 * (decision F3, ADR 0330).
 */
export const runReasoning = (
  run: FormatRun,
  models: Models["Type"],
  openTools: OpenTools
): Effect.Effect<FormatEnding> =>
  Effect.gen(function* () {
    const began = yield* Clock.currentTimeMillis
    const prepared = prepareRun(run, models.settings)
    if (Either.isLeft(prepared)) return rejectedBeforeModel(prepared.left)
    const { document, model, providerOptions, prompt } = prepared.right
    const recordFacts = run.record ?? (() => Effect.void)
    const recorded = recordedRun(run.resumed?.facts ?? [])
    const resumed = yield* resumeConversation(recorded, run.recall ?? (() => Effect.succeed(Option.none())))
    if (resumed.closing.length > 0) {
      const closed = yield* Effect.either(recordFacts(resumed.closing))
      if (Either.isLeft(closed)) return rejectedBeforeModel(closed.left)
    }
    const opened = yield* Effect.either(openTools(run, document.tools))
    if (Either.isLeft(opened)) return rejectedBeforeModel(afterTools(opened.left, toolsCalledIn(recorded)))
    const tools = opened.right
    const context: CallContext = {
      models,
      record: recordFacts,
      keep: run.keep ?? (() => Effect.void),
      json: document.output.format === "json",
      runDeadline: began + runLimitMillis(document.settings.maxOutputTokens),
      shownCalls: tools.shownCalls
    }
    const spending: Spending = { usage: resumed.usage, cost: resumed.cost, answered: resumed.answered }
    const messages: Array<ModelMessage> = [{ role: "user", text: prompt.message }, ...resumed.messages]
    let number = resumed.number

    /** One model call of the conversation as it stands; its failure as the run's rejection. */
    const ask = (step: CallAsked["step"], repair: boolean): Effect.Effect<ModelAnswer, Rejection> => {
      number++
      const offered = step === "with_tools" ? tools.offered : []
      const asked: CallAsked = {
        number,
        step,
        model,
        settings: document.settings,
        system: prompt.instructions,
        messages: [...messages],
        toolsOffered: offered.length,
        repair,
        unrecorded: tools.unrecorded()
      }
      const request = {
        provider: model.provider,
        model: model.model,
        ...(prompt.instructions === undefined ? {} : { system: prompt.instructions }),
        messages: step === "final" ? retellTools(asked.messages) : asked.messages,
        settings: document.settings,
        output: document.output,
        tools: offered,
        ...(providerOptions === undefined ? {} : { providerOptions })
      }
      return Effect.flatMap(callModel(context, asked, request), (outcome) => {
        if (Either.isLeft(outcome)) {
          const failure = outcome.left
          if (failure.kind === "timed_out" && Date.now() >= context.runDeadline)
            return Effect.fail(
              reject("unavailable", "The run passed its bound of time before its model answered; try again later.", {
                because: "run_bound",
                retryAfter: laterSeconds
              })
            )
          const words = exposedWords(model, failure, [prompt.message, prompt.instructions ?? ""])
          return Effect.fail(modelFailureRejection(model, failure, words))
        }
        const answer = outcome.right
        spending.usage = addUsage(spending.usage, answer.usage)
        spending.cost = answer.costUsd === undefined ? spending.cost : (spending.cost ?? 0) + answer.costUsd
        spending.answered = true
        return Effect.succeed(answer)
      })
    }

    /** Carries out the calls an answer asked for, telling the model of each; a bound of the loop ends the run. */
    const carry = (calls: ReadonlyArray<ModelToolCall>) =>
      Effect.gen(function* () {
        const carried = yield* tools.call(calls)
        messages.push(...carried.results)
        if (carried.stop !== undefined)
          return yield* Effect.fail(
            reject("unavailable", carried.stop.detail, { because: carried.stop.because, retryAfter: laterSeconds })
          )
      })

    /**
     * The loop: model calls and the tool calls they ask for, up to an answer without any; a run performed again
     * goes on from where it stopped.
     */
    const converse = (start: GoOn) =>
      Effect.gen(function* () {
        let next = start
        if (next._tag === "EffectUnknown") return yield* Effect.fail(effectUnknown(next.call))
        if (next._tag === "Unreadable") return yield* Effect.fail(unreadable(next.number))
        if (next._tag === "Call") yield* carry(next.calls)
        for (;;) {
          const withinTokens = inputTokensOf(spending.usage) < (models.settings.maxInputTokens ?? defaultMaxInputTokens)
          const step =
            next._tag === "Answer"
              ? next.step
              : tools.offered.length > 0 && !tools.spent() && withinTokens
                ? "with_tools"
                : "final"
          const answer = next._tag === "Answer" ? next.answer : yield* ask(step, false)
          next = { _tag: "Ask" }
          if (answer.toolCalls.length === 0) return answer
          if (step === "final")
            return yield* Effect.fail(
              reject("unavailable", "The model still asked for tools in its final step, which offers none.", {
                because: "no_answer",
                retryAfter: laterSeconds
              })
            )
          messages.push({ role: "assistant", text: answer.text, toolCalls: answer.toolCalls })
          yield* carry(answer.toolCalls)
        }
      })

    const repair = (answer: ModelAnswer, issues: ReadonlyArray<{ readonly detail: string }>) => {
      messages.push({ role: "assistant", text: answer.text, toolCalls: [] })
      messages.push({ role: "user", text: repairWords(issues) })
      return ask("final", true)
    }

    const work = Effect.gen(function* () {
      const answer = yield* converse(resumed.goOn)
      if (document.output.format === "text") return { answer, output: answer.text as unknown }
      let last = answer
      const output = yield* jsonAnswer(answer, document.output.schema, document.settings.maxOutputTokens, (...args) =>
        Effect.tap(repair(...args), (corrected) => {
          last = corrected
        })
      )
      return { answer: last, output }
    })
    const ended = yield* Effect.either(
      run.cancelled === undefined
        ? work
        : Effect.raceFirst(
            Effect.interruptible(work),
            Effect.interruptible(Effect.flatMap(run.cancelled, (asked) => Effect.fail(cancelledBy(asked))))
          )
    )
    const duration = (yield* Clock.currentTimeMillis) - began
    const cost = spending.cost === undefined ? {} : { cost_usd: spending.cost }
    const rejected = (rejection: Rejection): FormatEnding => {
      const ending = afterTools(rejection, tools.called())
      const spent = spending.answered ? { usage: usageShown(spending.usage), duration_ms: duration, ...cost } : {}
      const record = { ...spent, ...delayKept(ending) }
      return { _tag: "Rejected", rejection: ending, ...(Object.keys(record).length === 0 ? {} : { record }) }
    }
    if (Either.isLeft(ended)) return rejected(ended.left)
    const { answer, output } = ended.right
    const record = answerRecord(
      output,
      {
        model: { requested: model.requested, resolved: model.resolved, answered: answer.model },
        settings: settingsShown(document.settings),
        output_format: document.output.format,
        finish_reason: answer.finishReason,
        raw_finish_reason: answer.rawFinishReason,
        usage: usageShown(spending.usage),
        response_id: answer.responseId,
        warnings: [],
        duration_ms: duration,
        ...cost
      },
      prompt
    )
    if (Either.isLeft(record)) return rejected(conflict(record.left, "unworkable"))
    return { _tag: "Succeeded", output, record: record.right } as const
  })
