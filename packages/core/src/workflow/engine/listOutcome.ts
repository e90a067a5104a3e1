import type { BodyOutcome, ListOutcome } from "./frames.js"

/** A task's body outcome from the outcome of the list it runs (`exit` only leaves the list). */
export const listOutcome = (outcome: ListOutcome): BodyOutcome => {
  switch (outcome.tag) {
    case "waiting":
      return outcome
    case "done":
      return { tag: "done", value: outcome.value, cause: outcome.cause }
    case "raised":
      return { tag: "raised", fault: outcome.fault, cause: outcome.cause }
    case "end":
      return { tag: "end", value: outcome.value, cause: outcome.cause }
  }
}
