import type { Fact } from "../domain/Fact.js"
import { foldRun } from "../runs/foldRun.js"
import type { RunState } from "../runs/RunRecord.js"
import type { RunCancelRequested, RunStarted } from "../runs/runFacts.js"
import type {
  DeliveredAs,
  DeliveryFailed,
  DeliveryStarted,
  DeliverySucceeded,
  InteractionRequested,
  ReplyRefused,
  RequestRecord,
  RunDeferred
} from "./interactionFacts.js"

/** One delivery attempt as a run's stream holds it: its start, and how it ended once it did. */
export interface DeliveryAttempt {
  readonly number: number
  readonly startedId: string
  readonly started: DeliveryStarted
  readonly ending?: {
    readonly type: "delivery_succeeded" | "delivery_failed" | "delivery_refused"
    readonly id: string
    /** When another attempt follows a failed one. */
    readonly nextAttemptAt?: string
  }
}

/** A run's stream as the request's decisions see it: the run, its request, its deliveries, its answer and its cancel. */
export interface RequestState {
  readonly run?: RunState
  /** The run's input, as its start recorded it: what a delivery's arguments read. */
  readonly input?: unknown
  readonly requested?: InteractionRequested
  /** The `interaction_requested` fact: what caused the first attempt, and the metadata the request's facts carry. */
  readonly requestFact?: Fact
  readonly record?: RequestRecord
  /** The delivery attempts, in order. */
  readonly attempts?: ReadonlyArray<DeliveryAttempt>
  /** Where the delivered request landed, and the conversation key its replies are read under, when it reads them. */
  readonly delivered?: { readonly as?: DeliveredAs; readonly repliesIn?: string }
  /** The ids of the replies refused so far, in order. */
  readonly refusedReplies?: ReadonlyArray<string>
  /** The `request_answered` fact, when the request was answered. */
  readonly answer?: Fact
  /** The first cancel asked, with who asked. */
  readonly cancel?: RunCancelRequested & { readonly by: string }
}

/** The attempts with the ending of attempt `number` set, when it has none yet. */
const endAttempt = (attempts: ReadonlyArray<DeliveryAttempt>, fact: Fact): ReadonlyArray<DeliveryAttempt> => {
  const data = fact.data as DeliveryFailed
  return attempts.map((attempt) =>
    attempt.number !== data.number || attempt.ending !== undefined
      ? attempt
      : {
          ...attempt,
          ending: {
            type: fact.type as "delivery_succeeded" | "delivery_failed" | "delivery_refused",
            id: fact.id,
            ...(data.next_attempt_at === undefined ? {} : { nextAttemptAt: data.next_attempt_at })
          }
        }
  )
}

/** Folds one fact of a run's stream into its request state. */
export const foldRequest = (state: RequestState, fact: Fact): RequestState => {
  const run = foldRun(state.run, fact)
  const next = run === undefined ? state : { ...state, run }
  switch (fact.type) {
    case "run_started":
      return { run: next.run, input: (fact.data as RunStarted).input }
    case "interaction_requested":
      return { ...next, requested: fact.data as InteractionRequested, requestFact: fact }
    case "run_deferred":
      return { ...next, record: (fact.data as RunDeferred).record }
    case "delivery_started": {
      const started = fact.data as DeliveryStarted
      return {
        ...next,
        attempts: [...(next.attempts ?? []), { number: started.number, startedId: fact.id, started }]
      }
    }
    case "delivery_succeeded": {
      const data = fact.data as DeliverySucceeded
      return {
        ...next,
        attempts: endAttempt(next.attempts ?? [], fact),
        delivered: {
          ...(data.delivered_as === undefined ? {} : { as: data.delivered_as }),
          ...(data.replies_in === undefined ? {} : { repliesIn: data.replies_in })
        }
      }
    }
    case "delivery_failed":
    case "delivery_refused":
      return { ...next, attempts: endAttempt(next.attempts ?? [], fact) }
    case "reply_refused":
      return { ...next, refusedReplies: [...(next.refusedReplies ?? []), (fact.data as ReplyRefused).reply.id] }
    case "request_answered":
      return next.answer === undefined ? { ...next, answer: fact } : next
    case "run_cancel_requested":
      return next.cancel === undefined
        ? { ...next, cancel: { ...(fact.data as RunCancelRequested), by: fact.metadata.by } }
        : next
    default:
      return next
  }
}

/** A run stream's request state from nothing. */
export const noRequest: RequestState = {}
