import { createServer } from "node:net"

/** `${` as the documents write it, kept out of string literals. */
export const x = "$" + "{"

/** The header of a test workflow in a namespace of the test's own. */
export const workflowHeader = (namespace: string): string =>
  `document:\n  dsl: '1.0.3'\n  namespace: ${namespace}\n  name: flow\n  version: '1.0.0'\n`

/** A computation function adding one to `n`: the callee of the multi-process tests' workflows. */
export const addOne = `---
description: Adds one to n
language: typescript
input:
  schema: { type: object, required: [n], properties: { n: { type: number } } }
---
export default function (input: Input): Json {
  return { n: input.n + 1 }
}
`

/** An interaction function held for an agent, asking whether to go on with `n`: a request the tests answer. */
export const askToGoOn = `---
description: Asks whether to go on
to: dana
expires: P1D
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Go on with {{ input.n }}?
`

/** A TCP port free on 127.0.0.1 just now, for a server that must keep its address across restarts. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address() as { port: number }
      probe.close(() => resolve(address.port))
    })
  })
