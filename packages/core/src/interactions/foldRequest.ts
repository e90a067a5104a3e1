import type { Fact } from "../domain/Fact.js"
import { foldRun } from "../runs/foldRun.js"
import type { RunState } from "../runs/RunRecord.js"
import type { RunCancelRequested } from "../runs/runFacts.js"
import type { InteractionRequested, RequestRecord, RunDeferred } from "./interactionFacts.js"

/** A run's stream as the request's decisions see it: the run, its request, its answer and its cancel. */
export interface RequestState {
  readonly run?: RunState
  readonly requested?: InteractionRequested
  readonly record?: RequestRecord
  /** The `request_answered` fact, when the request was answered. */
  readonly answer?: Fact
  /** The first cancel asked, with who asked. */
  readonly cancel?: RunCancelRequested & { readonly by: string }
}

/** Folds one fact of a run's stream into its request state. */
export const foldRequest = (state: RequestState, fact: Fact): RequestState => {
  const run = foldRun(state.run, fact)
  const next = run === undefined ? state : { ...state, run }
  switch (fact.type) {
    case "run_started":
      return { run: next.run }
    case "interaction_requested":
      return { ...next, requested: fact.data as InteractionRequested }
    case "run_deferred":
      return { ...next, record: (fact.data as RunDeferred).record }
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
