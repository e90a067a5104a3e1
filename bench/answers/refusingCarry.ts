import { Ledger, VersionConflict } from "@runledger/core"
import { Effect, Layer } from "effect"

/**
 * A store whose ledger refuses every append that would carry a waiting workflow on beside an answer (ADR 0405), as
 * when another instance moved the workflow first: the answer is then appended alone, and the workflow's host takes
 * it up. The rest is the store's own.
 */
export const refusingCarry = <A, E, R>(store: Layer.Layer<A, E, R>) =>
  Layer.effect(
    Ledger,
    Effect.map(Ledger, (ledger) => ({
      ...ledger,
      append: (appends: Parameters<typeof ledger.append>[0], options?: Parameters<typeof ledger.append>[1]) => {
        const carried = appends.find((append) => append.facts.some((fact) => fact.type === "workflow_input_applied"))
        return carried !== undefined &&
          appends.some((append) => append.facts.some((fact) => fact.type === "request_answered"))
          ? Effect.fail(new VersionConflict({ stream: carried.stream, expected: carried.expected, actual: -1 }))
          : ledger.append(appends, options)
      }
    }))
  ).pipe(Layer.provideMerge(store))
