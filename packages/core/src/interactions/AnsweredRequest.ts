import { Schema } from "effect"
import { CallerReference } from "../domain/Caller.js"
import type { Fact } from "../domain/Fact.js"
import type { RequestAnswered } from "./interactionFacts.js"

/** What answer_interaction returns: the `request_answered` fact's fields (HTTP "Answering a request"). */
export const AnsweredRequest = Schema.Struct({
  run_id: Schema.String,
  answer_id: Schema.String,
  answer: Schema.Unknown,
  claimed_for: Schema.optional(Schema.String),
  answered_by: CallerReference,
  reply: Schema.optional(Schema.Unknown),
  answered_at: Schema.String
}).annotations({ identifier: "AnsweredRequest" })
export type AnsweredRequest = typeof AnsweredRequest.Type

/** The answer as the API shows it, from its fact: the fact's id is the answer's id, its time the answer's time. */
export const answeredRequestOf = (fact: Fact): AnsweredRequest => {
  const data = fact.data as RequestAnswered
  return {
    run_id: fact.metadata.run_id!,
    answer_id: fact.id,
    answer: data.answer,
    ...(data.claimed_for === undefined ? {} : { claimed_for: data.claimed_for }),
    answered_by: data.answered_by,
    ...(data.reply === undefined ? {} : { reply: data.reply }),
    answered_at: fact.metadata.at
  }
}
