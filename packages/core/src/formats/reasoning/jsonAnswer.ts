import { Effect, Either } from "effect"
import { conflict, type Rejection, reject } from "../../domain/Rejection.js"
import type { ModelAnswer } from "../../ports/ModelProvider.js"
import { checkAnswer } from "./checkAnswer.js"

/** The words asking the model to correct an answer its schema refused (decision F2's `repair`). */
export const repairWords = (issues: ReadonlyArray<{ readonly detail: string }>): string =>
  `Your answer does not fit the required JSON schema: ${issues
    .slice(0, 5)
    .map((issue) => issue.detail)
    .join(" ")} Answer again with only the corrected JSON value.`

/** The ending of a JSON answer cut at `max_output_tokens`: raise the limit. */
const cutOff = (maxOutputTokens: number): Rejection =>
  conflict(`The model's JSON answer was cut at max_output_tokens (${maxOutputTokens}); raise the limit.`, "unworkable")

/**
 * The value of a JSON answer (function-formats.md §2.7, decision F2): an answer cut at `max_output_tokens` is
 * `conflict`/`unworkable`; one its schema refuses is asked once to be corrected (`repair` sends the answer and the
 * issues back and answers the model's next answer, or the rejection its call ended with), and a correction that
 * still does not fit ends `unavailable`, because `output_invalid`.
 */
export const jsonAnswer = (
  answer: ModelAnswer,
  schema: unknown,
  maxOutputTokens: number,
  repair: (
    answer: ModelAnswer,
    issues: ReadonlyArray<{ readonly detail: string }>
  ) => Effect.Effect<ModelAnswer, Rejection>
): Effect.Effect<unknown, Rejection> =>
  Effect.gen(function* () {
    if (answer.finishReason === "length") return yield* Effect.fail(cutOff(maxOutputTokens))
    const checked = checkAnswer(answer.text, schema)
    if (Either.isRight(checked)) return checked.right
    const corrected = yield* repair(answer, checked.left)
    const again = checkAnswer(corrected.text, schema)
    if (Either.isRight(again)) return again.right
    if (corrected.finishReason === "length") return yield* Effect.fail(cutOff(maxOutputTokens))
    return yield* Effect.fail(
      reject(
        "unavailable",
        `The model's answer does not fit the output schema, even when asked to correct it: ${again.left
          .slice(0, 3)
          .map((issue) => issue.detail)
          .join(" ")} Running it again may pass.`,
        { because: "output_invalid", retryAfter: 30 }
      )
    )
  })
