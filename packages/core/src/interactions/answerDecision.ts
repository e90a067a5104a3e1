import { Effect, Either } from "effect"
import type { CallerReference } from "../domain/Caller.js"
import { conflict, invalidAt, invalidInput, type Rejection, reject } from "../domain/Rejection.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import { schemaValidator } from "../formats/jsonSchema/SchemaValidator.js"
import { endingMetadata } from "../host/requestEnding.js"
import type { DraftFact } from "../ledger/decide.js"
import { canonicalDigest } from "../runs/canonicalDigest.js"
import type { RequestState } from "./foldRequest.js"
import type { ReplyIdentity, RequestAnswered } from "./interactionFacts.js"

/** The largest answer, as JSON (function-formats.md §3.9). */
export const maxAnswerBytes = 65_536

/** An answer to record: the value, whom the caller answers for, who answers, the reply it was read from, and when. */
export interface AnswerCommand {
  readonly runId: string
  readonly answer: unknown
  readonly claimedFor?: string
  readonly answeredBy: CallerReference
  readonly reply?: ReplyIdentity
  readonly now: number
  /** Who records the run's ending with the answer: the playbook (`playbook:<id>`), as the host would. */
  readonly endedBy: string
}

/**
 * Decides an answer on the run's stream (HTTP "Answering a request"): the same answer again records nothing (the
 * recorded fact is returned); a different answer, an ended request, a cancel asked, an expired request or a
 * notification is `conflict`; an answer over 64 KiB or that the recorded answer schema refuses is `invalid_input`
 * under `/answer`; otherwise `request_answered` and, in the same append, the run's `run_succeeded` with the answer
 * as its output (recorded by the playbook, caused by the answer), so the run has ended when the answer is recorded
 * (ADR 0196).
 */
export const answerDecision = (
  state: RequestState,
  command: AnswerCommand
): Effect.Effect<ReadonlyArray<DraftFact>, Rejection> => {
  const { run, requested, record, answer } = state
  const id = command.runId
  if (run === undefined) return Effect.fail(reject("not_found", `The playbook has no run ${id}.`))
  if (requested === undefined || record === undefined)
    return Effect.fail(
      conflict(`The run ${id} asks nothing: it is not a run of an interaction function that waits for an answer.`)
    )
  if (!requested.takes_answer) return Effect.fail(conflict(`The run ${id} sent a notification, which takes no answer.`))
  if (answer !== undefined) {
    const recorded = (answer.data as RequestAnswered).answer
    return canonicalDigest(recorded) === canonicalDigest(command.answer)
      ? Effect.succeed([])
      : Effect.fail(conflict(`The request of the run ${id} was already answered with another answer.`))
  }
  if (run.status !== "started") return Effect.fail(conflict(`The request of the run ${id} has ended (${run.status}).`))
  if (state.cancel !== undefined)
    return Effect.fail(conflict(`The run ${id} was asked to cancel, so its request takes no answer.`))
  if (command.now >= Date.parse(requested.expires_at))
    return Effect.fail(conflict(`The request of the run ${id} expired at ${requested.expires_at}.`))
  const bytes = utf8Bytes(JSON.stringify(command.answer) ?? "")
  if (bytes > maxAnswerBytes)
    return Effect.fail(
      invalidAt("/answer", `/answer holds ${bytes} bytes as JSON; at most ${maxAnswerBytes} are allowed.`)
    )
  const validate = schemaValidator(record.answer_schema)
  if (Either.isLeft(validate))
    return Effect.fail(reject("internal", `The recorded answer schema no longer compiles: ${validate.left}`))
  const issues = validate.right(command.answer, "/answer")
  if (issues.length > 0) return Effect.fail(invalidInput(issues))
  const data: RequestAnswered = {
    answer: command.answer,
    ...(command.claimedFor === undefined ? {} : { claimed_for: command.claimedFor }),
    answered_by: command.answeredBy,
    ...(command.reply === undefined ? {} : { reply: command.reply })
  }
  return Effect.succeed([
    {
      type: "request_answered",
      data,
      metadata: {
        run_id: run.run_id,
        definition: { type: run.type, name: run.name, version: run.definition_version },
        correlation_id: run.run_id
      }
    },
    {
      type: "run_succeeded",
      data: { output: command.answer, record },
      metadata: { ...endingMetadata(run, undefined), by: command.endedBy },
      causedBy: 0
    }
  ])
}
