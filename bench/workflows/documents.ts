/** The documents the workflows benchmark saves: the step function, and the workflows built from its steps. */

/** The computation function every call step runs: n → n + 1, as every peer's step computes it. */
export const incrementSource = `---
description: Adds one to n
language: typescript
input:
  schema: { type: object, properties: { n: { type: number } }, required: [n] }
---
export default function (input: Input): Output {
  return { n: input.n + 1 }
}
`

const header = "document:\n  dsl: '1.0.3'\n  namespace: bench\n  name: steps\n  version: '1.0.0'\ndo:\n"
const expression = (body: string) => `$\{ ${body} }`

/** A workflow of `steps` `call: run_definition` tasks, each handing n + 1 on from the function `increment`. */
export const callChain = (steps: number): string =>
  header +
  Array.from(
    { length: steps },
    (_, index) =>
      `  - step${index}:\n      call: run_definition\n      with:\n        type: computation\n        name: increment\n        input: ${expression("$data")}\n`
  ).join("")

/** A workflow of `steps` `set` tasks, each handing n + 1 on: the interpreter alone, no callee. */
export const setChain = (steps: number): string =>
  header +
  Array.from(
    { length: steps },
    (_, index) => `  - step${index}:\n      set:\n        n: ${expression("$data.n + 1")}\n`
  ).join("")

/** The event type the listening workflow takes. */
export const tickType = "com.runledger.bench.tick"

/**
 * A workflow that takes one event after another for ever: each event is one input applied, so a run's history
 * grows by one input per event sent (the cost-growth row).
 */
export const listenLoop: string =
  header +
  `  - hear:\n      listen:\n        to:\n          one:\n            with:\n              type: ${tickType}\n` +
  `  - count:\n      set:\n        n: ${expression("$data[0].n")}\n      then: hear\n`
