import { Clock, Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { utf8Bytes } from "../../domain/utf8Bytes.js"
import { runDecider } from "../../ledger/decide.js"
import { readRun } from "../../runs/readRun.js"
import { runStream } from "../../runs/runFacts.js"
import { appendCarryingCaller } from "../../workflow/run/appendCarryingCaller.js"
import { AnsweredRequest, answeredRequestOf } from "../AnsweredRequest.js"
import { answerDecision } from "../answerDecision.js"
import { foldRequest, noRequest } from "../foldRequest.js"

/** `claimed_for`: whom the caller says it answers for, at most 256 bytes; never checked. */
const ClaimedFor = Schema.String.pipe(
  Schema.filter((text) => utf8Bytes(text) <= 256 || "must be at most 256 bytes", {
    jsonSchema: { maxLength: 256 }
  }),
  Schema.annotations({ description: "Whom you say you answer for, at most 256 bytes; the runtime never checks it." })
)

/** answer_interaction: records the answer to a waiting request once; the run then succeeds with it as output. */
export const answerInteraction = declare({
  name: "answer_interaction",
  title: "Answer a request",
  description:
    "Answer the open request of an interaction function's run, which list_interactions shows. The answer must match the request's answer_schema, as recorded when it was asked, and hold at most 64 KiB as JSON. It is recorded once: the same answer again returns the same answer; a different one is refused. The run then succeeds with the answer as its output.",
  tag: "interactions",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/runs/{run_id}/answer" },
  input: Schema.Struct({
    run_id: Uuid.annotations({ description: "The run whose request you answer." }),
    answer: Schema.Unknown.annotations({
      description: "The answer: any JSON value the request's answer_schema allows."
    }),
    claimed_for: Schema.optional(ClaimedFor)
  }),
  output: AnsweredRequest,
  permission: "playbook:write",
  hints: { idempotent: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found", "conflict"],
  summarize: (answered) => `Answered the request of run ${answered.run_id}; the run takes the answer as its output.`,
  handle: (input, { caller, org, playbook }) =>
    Effect.gen(function* () {
      const known = yield* readRun(org, playbook!.id, input.run_id)
      const now = yield* Clock.currentTimeMillis
      const { state, facts } = yield* runDecider({
        stream: runStream(org, playbook!.id, known.run_id),
        initial: noRequest,
        fold: foldRequest,
        decide: (current) =>
          answerDecision(current, {
            runId: known.run_id,
            answer: input.answer,
            ...(input.claimed_for === undefined ? {} : { claimedFor: input.claimed_for }),
            answeredBy: caller.reference,
            now,
            endedBy: `playbook:${playbook!.id}`
          }),
        by: caller.id,
        what: `the run ${input.run_id}`,
        append: appendCarryingCaller
      })
      return answeredRequestOf(facts[0] ?? state.answer!)
    })
})
