import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { uuidV5 } from "../../../core/src/workflow/engine/uuidV5.js"
import type { AcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"

/** `${` as the documents write it; kept out of string literals so the linter reads them as plain text. */
export const x = "$" + "{"

/** A workflow document named `name` with the given root task lines. */
export const workflowNamed = (name: string, tasks: string) =>
  `document:\n  dsl: '1.0.3'\n  namespace: test\n  name: ${name}\n  version: '1.0.0'\ndo:\n${tasks}`

/** The reference of the call task of `catchingCall`. */
export const caughtCallReference = "/do/0/attempt/try/0/call-it"

/** The run id of the callee that the first call of `catchingCall` starts in the workflow run `runId` (UUIDv5). */
export const caughtCalleeId = (runId: string): string => uuidV5(`${runId} ${caughtCallReference} 1`)

/**
 * The workflow `calls-<name>`: it calls the function `type`/`name` (with `input` lines, if any) inside a try whose
 * catch takes what `filter` names (its `errors` lines; none catches every error W6 lets a bare catch take), and
 * outputs the error its call raised: `type`, `status`, `title`, `kind` and `because`.
 */
export const catchingCall = (type: string, name: string, { input = "", filter = "" } = {}) =>
  workflowNamed(
    `calls-${name}`,
    `  - attempt:
      try:
        - call-it:
            call: run_definition
            with:
              type: ${type}
              name: ${name}
${input}      catch:
${filter}        as: failure
        do:
          - report:
              set:
                type: ${x} $failure.type }
                status: ${x} $failure.status }
                title: ${x} $failure.title }
                kind: ${x} $failure.kind }
                because: ${x} $failure.because ?? null }
`
  )

/** An interaction function whose run waits an hour for its answer: a run that ends later than its call. */
export const asking = `---
description: Asks for a decision
to: owner@example.com
expires: PT1H
deliver: agent
output:
  schema: { type: object, required: [ok], properties: { ok: { type: boolean } } }
---
Decide, please.
`

/** Saves each named source as a definition of `type` in the playbook at `base` (a function with no diagram). */
export const saveAll = async (
  server: AcceptanceServer,
  base: string,
  type: string,
  sources: ReadonlyArray<readonly [string, string]>
) => {
  for (const [name, source] of sources) {
    const diagram = type === "workflow" ? {} : { diagram: "none" }
    const saved = await server.send("POST", `${base}/definitions/${type}`, { name, source, ...diagram })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
  }
}

/**
 * Starts the workflow `name` of the playbook at `base` under a run id of the test's own: that id, and the id of the
 * callee its `catchingCall` starts.
 */
export const startCatching = async (server: AcceptanceServer, base: string, name: string) => {
  const runId = randomUUID()
  const started = await server.send("POST", `${base}/definitions/workflow/${name}/run`, { run_id: runId })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  return { runId, calleeId: caughtCalleeId(runId) }
}

/** The run `runId` of the playbook at `base` once it ended, read every 100 ms for at most 20 s. */
export const endedRun = (server: AcceptanceServer, base: string, runId: string) =>
  waitFor(async () => {
    const read = await server.send("GET", `${base}/runs/${runId}`)
    return read.body.status === "started" ? undefined : read.body
  }, 20_000)
