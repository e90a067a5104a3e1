import { Ledger, VersionConflict } from "@runledger/core"
import { Effect, Layer } from "effect"
import { workflowSource } from "./workflowRunFixture.js"

const x = "$" + "{"

/** A workflow whose first step asks (the interaction `ask`) and whose next one sets what was decided. */
export const asking = workflowSource(
  `  - ask:\n      call: run_definition\n      with:\n        type: interaction\n        name: ask\n        input: ${x} $data }\n` +
    `  - record:\n      set:\n        decided: ${x} $data.decision }\n`
)

/** The same, catching an unanswered request as the decision `none`. */
export const askingOrGivingUp = workflowSource(
  "  - attempt:\n      try:\n        - ask:\n            call: run_definition\n" +
    `            with:\n              type: interaction\n              name: ask\n              input: ${x} $data }\n` +
    "      catch:\n        errors:\n          with: { type: https://on.auto/problems/unanswered }\n        do:\n" +
    "          - gaveUp:\n              set:\n                decision: none\n" +
    `  - record:\n      set:\n        decided: ${x} $data.decision }\n`
)

/**
 * A store whose ledger refuses, once per workflow run, an append that would move the run beside an answer (ADR
 * 0405), as if another instance had moved it first; `refused` collects the runs' streams. The rest is the store's.
 */
export const refusingCarriedAppends = <E, R>(store: Layer.Layer<any, E, R>, refused: Array<string>) =>
  Layer.effect(
    Ledger,
    Effect.map(Ledger, (ledger) => ({
      ...ledger,
      append: (appends: Parameters<typeof ledger.append>[0], options?: Parameters<typeof ledger.append>[1]) => {
        const caller = appends.find((append) => append.facts.some((fact) => fact.type === "workflow_input_applied"))
        const answer = appends.some((append) => append.facts.some((fact) => fact.type === "request_answered"))
        if (caller === undefined || !answer || refused.includes(caller.stream)) return ledger.append(appends, options)
        refused.push(caller.stream)
        return Effect.fail(new VersionConflict({ stream: caller.stream, expected: caller.expected, actual: -1 }))
      }
    }))
  ).pipe(Layer.provideMerge(store))
