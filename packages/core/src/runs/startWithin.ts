import { Effect } from "effect"
import { formatOf } from "../definitions/readSource.js"
import type { Rejection } from "../domain/Rejection.js"
import { type Formats, recordsWithStartOf } from "../formats/DefinitionFormat.js"
import { placeFacts } from "../ledger/decide.js"
import type { ContentStore } from "../ports/ContentStore.js"
import type { Ids } from "../ports/Ids.js"
import type { Ledger, StreamAppend } from "../ports/Ledger.js"
import type { Views } from "../ports/Views.js"
import { canonicalDigest } from "./canonicalDigest.js"
import type { RunCommand } from "./performRun.js"
import { runStream } from "./runFacts.js"
import { appendsOfEnding, carryOut, startDraft } from "./runStart.js"

/** A new run decided for another append to record: its stream, and the appends that start it (and may end it). */
export interface StartedWithin {
  readonly stream: string
  readonly appends: ReadonlyArray<StreamAppend>
}

/**
 * Starts a new run inside another append (ADR 0278): when the run's format records with its start (a computation
 * ends within it, an interaction opens its request), the run is carried out now and its `run_started` and ending
 * (or request) are returned for the caller to append with its own facts, the run's stream at version 0 — so a
 * workflow step's callee costs no commit of its own, and a stream that already holds a run makes the whole append
 * conflict (the caller then starts the run on its own, by `performRun` and the retry table). Undefined when the
 * format goes on after its start (a workflow).
 */
export const startWithin = (
  command: RunCommand
): Effect.Effect<StartedWithin | undefined, Rejection, Ledger | Ids | Formats | Views | ContentStore> =>
  Effect.gen(function* () {
    const format = yield* formatOf(command.definition.type)
    if (!recordsWithStartOf(format, command.definition.source)) return undefined
    const stream = runStream(command.org, command.playbook, command.runId)
    const draft = startDraft(command, canonicalDigest(command.input), undefined)
    const [startFact] = yield* placeFacts([draft], command.caller.id)
    const following = { ...draft.metadata, first_started_at: startFact.metadata.at }
    const ending = yield* carryOut(command, format, stream, startFact, following)
    if (ending._tag === "Started" && ending.goesOn !== undefined)
      return yield* Effect.dieMessage(`The ${command.definition.type} format records with its start yet goes on.`)
    const recorded = yield* appendsOfEnding(ending, { ...following, causation_id: startFact.id }, command.caller.id)
    return {
      stream,
      appends: [{ stream, expected: 0, facts: [startFact, ...recorded.facts] }, ...recorded.alongside]
    }
  })
