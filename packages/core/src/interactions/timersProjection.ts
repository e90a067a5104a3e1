import type { Projection } from "../ports/Views.js"
import type { InteractionRequested } from "./interactionFacts.js"
import { runEndingTypes } from "./interactionFacts.js"
import { runAddressOf } from "./runAddress.js"

/** The view of durable timers: partition `due`, one document per waiting run, sorted by when the host must look. */
export const timersView = "timers"

/** The one partition of the timers: the host reads it in due order. */
export const timersPartition = "due"

/** A waiting run's timer: its stream and when the host must next look at it. */
export interface Timer {
  readonly stream: string
  readonly due_at: string
}

/**
 * Folds waiting runs into durable timers: `interaction_requested` sets one at `expires_at`; an answer or a cancel
 * makes it due at once (so a host that missed the wake-up still ends the run); the run's end removes it.
 */
export const timersProjection: Projection = {
  view: timersView,
  types: ["interaction_requested", "request_answered", "run_cancel_requested", ...runEndingTypes],
  keys: (fact) =>
    runAddressOf(fact.metadata.stream) === undefined
      ? []
      : [{ view: timersView, partition: timersPartition, id: fact.metadata.stream }],
  apply: (current, fact, key) => {
    const timer = (due: string) => ({ id: key.id, sort: due, data: { stream: key.id, due_at: due } satisfies Timer })
    switch (fact.type) {
      case "interaction_requested":
        return timer((fact.data as InteractionRequested).expires_at)
      case "request_answered":
      case "run_cancel_requested":
        return current === undefined
          ? undefined
          : // biome-ignore lint/complexity/useMathMinMax: ISO 8601 texts, compared as texts
            timer(current.sort < fact.metadata.at ? current.sort : fact.metadata.at)
      default:
        return undefined
    }
  }
}
