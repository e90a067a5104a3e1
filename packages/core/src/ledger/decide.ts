import { Clock, Effect } from "effect"
import type { Fact, NewFact, NewFactMetadata } from "../domain/Fact.js"
import { concurrentChange, type Rejection } from "../domain/Rejection.js"
import { Ids } from "../ports/Ids.js"
import { type AppendResult, Ledger, type StreamAppend, type VersionConflict } from "../ports/Ledger.js"
import type { StoreUnavailable } from "../ports/StoreUnavailable.js"
import { storeToRejection } from "./unavailable.js"

/** A fact as a decider writes it; the ledger helper gives it an id, its time and who acted. */
export interface DraftFact {
  readonly type: string
  readonly data: unknown
  readonly metadata?: Partial<NewFactMetadata>
  /** The index of an earlier draft of the same list that caused this one: its id becomes this `causation_id`. */
  readonly causedBy?: number
}

/** How a command changes one stream: fold its facts into state, decide what to append. */
export interface Decider<S, E, R> {
  readonly stream: string
  readonly initial: S
  readonly fold: (state: S, fact: Fact) => S
  /** The facts the command records given the state; none when it changes nothing. */
  readonly decide: (state: S) => Effect.Effect<ReadonlyArray<DraftFact>, E, R>
  /** Who acted: the `by` of every fact. */
  readonly by: string
  /** What the stream is, for the words of a concurrent change ("the org's playbooks"). */
  readonly what: string
  /** How the decided facts are appended, when not alone: with what they cause elsewhere (ADR 0405). */
  readonly append?: (append: StreamAppend) => Effect.Effect<AppendResult, VersionConflict | StoreUnavailable, R>
}

/** How often a command is decided again after meeting a concurrent change before it answers `conflict`. */
export const decideAttempts = 5

/**
 * Runs a command as a decider: load the stream, fold, decide, append at the loaded version. On a version
 * conflict it decides again, a bounded number of times, then answers `conflict` ("send it again").
 * Returns the state after the appended facts, and the facts as the ledger placed them.
 */
export const runDecider = <S, E, R>(
  decider: Decider<S, E, R>
): Effect.Effect<{ readonly state: S; readonly facts: ReadonlyArray<Fact> }, E | Rejection, R | Ledger | Ids> =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    for (let attempt = 0; attempt < decideAttempts; attempt++) {
      const facts = yield* storeToRejection(ledger.readStream(decider.stream))
      const state = facts.reduce(decider.fold, decider.initial)
      const version = facts.length === 0 ? 0 : facts[facts.length - 1].metadata.position
      const drafts = yield* decider.decide(state)
      if (drafts.length === 0) return { state, facts: [] }
      const placed = yield* storeToRejection(
        Effect.flatMap(placeFacts(drafts, decider.by), (newFacts) =>
          decider.append === undefined
            ? ledger.append([{ stream: decider.stream, expected: version, facts: newFacts }])
            : decider.append({ stream: decider.stream, expected: version, facts: newFacts })
        )
      ).pipe(
        Effect.map((result) => result.facts),
        Effect.catchTag("VersionConflict", () => Effect.succeed(undefined))
      )
      if (placed !== undefined) return { state: placed.reduce(decider.fold, state), facts: placed }
    }
    return yield* Effect.fail<Rejection>(concurrentChange(decider.what))
  })

/** Gives drafts their ids (UUIDv7), their time and who acted. */
export const placeFacts = (drafts: ReadonlyArray<DraftFact>, by: string): Effect.Effect<Array<NewFact>, never, Ids> =>
  Effect.gen(function* () {
    const ids = yield* Ids
    const now = yield* Clock.currentTimeMillis
    const at = new Date(now).toISOString()
    const facts: Array<NewFact> = []
    for (const draft of drafts) {
      facts.push({
        id: yield* ids.uuidv7(now),
        type: draft.type,
        data: draft.data,
        metadata: {
          correlation_id: null,
          causation_id: null,
          at,
          by,
          ...draft.metadata,
          ...(draft.causedBy === undefined ? {} : { causation_id: facts[draft.causedBy]!.id })
        }
      })
    }
    return facts
  })
