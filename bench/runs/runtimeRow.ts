import { randomBytes } from "node:crypto"
import { type ContentStore, FormatsLive, type Ledger, RunLedger, type Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Layer, ManagedRuntime } from "effect"
import type { PostgresStore } from "../ledger/postgresStore.js"
import { dropSchema } from "../shared/dropSchema.js"
import { inProcessClient } from "../shared/inProcessClient.js"
import { inputOf, trivialDocument } from "./program.js"
import { timedSandbox } from "./timedSandbox.js"

/** Where a runtime row keeps its ledger. */
export type RowStore =
  | { readonly kind: "memory" }
  | { readonly kind: "postgres"; readonly store: Extract<PostgresStore, { available: true }>; readonly url: string }

/** A runtime served by its HTTP handler in-process, with the trivial function saved and ready to run. */
export interface RuntimeRow {
  /** Runs the function once through `handler(new Request(…))`; a run that does not succeed is counted in `refused`. */
  readonly run: (index: number) => Promise<void>
  /** Runs answered other than 2xx since the last `clear`, by status (503: no worker free within the deadline). */
  readonly refused: Map<number, number>
  /** Milliseconds spent in `Sandbox.run`, one per run since the last `clear`. */
  readonly sandboxTimes: Array<number>
  readonly close: () => Promise<void>
}

/** A request the handler answered other than 2xx. */
class Refused extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

const playbook = "/v1/orgs/local/playbooks/bench"

/**
 * Sends a request again while it is refused with 503, or a save with "the type check did not finish within 2 s",
 * up to 30 times 2 s apart: a loaded machine may start the checker or a sandbox worker later than a save or a run
 * waits for it, or slow the checker past its bound.
 */
const patiently = async (request: () => Promise<void>) => {
  for (let attempt = 1; ; attempt++) {
    const failure = await request().then(
      () => undefined,
      (error: unknown) => error
    )
    if (failure === undefined) return
    const again =
      failure instanceof Refused &&
      (failure.status === 503 || (failure.status === 422 && failure.message.includes("did not finish within")))
    if (!again || attempt === 30) throw failure
    await new Promise((resolve) => setTimeout(resolve, 2_000))
  }
}

/**
 * Opens a runtime on `store` with `runWorkers` sandbox workers, in local mode, saves the function and runs it once
 * per worker, one after the other, so the row starts with its first worker up.
 */
export const openRuntimeRow = async (store: RowStore, runWorkers: number): Promise<RuntimeRow> => {
  const sandboxTimes: Array<number> = []
  const schema = `bench_${randomBytes(6).toString("hex")}`
  const storeLayer: Layer.Layer<Ledger | Views | ContentStore, unknown> =
    store.kind === "memory" ? MemoryStore.layer : store.store.layer({ url: store.url, schema })
  const runtime = ManagedRuntime.make(
    RunLedger.onStore(storeLayer, {}, FormatsLive.pipe(Layer.provide(timedSandbox(runWorkers, sandboxTimes))))
  )
  const request = inProcessClient(runtime)
  const send = async (method: string, path: string, body: unknown) => {
    const { status, text } = await request(method, path, body)
    if (status >= 300) throw new Refused(status, `${method} ${path}: ${status} ${text}`)
  }
  await send("POST", "/v1/orgs/local/playbooks", { playbook: "bench", name: "bench" })
  const save = () =>
    send("POST", `${playbook}/definitions/computation`, {
      name: "twice",
      source: trivialDocument,
      diagram: "none",
      overview: "Twice a number."
    })
  await patiently(save)
  const refused = new Map<number, number>()
  const run = (index: number) =>
    send("POST", `${playbook}/definitions/computation/twice/run`, { input: inputOf(index) }).catch((error: unknown) => {
      const status = error instanceof Refused ? error.status : 0
      refused.set(status, (refused.get(status) ?? 0) + 1)
    })
  for (let index = 0; index < runWorkers; index++)
    await patiently(() => send("POST", `${playbook}/definitions/computation/twice/run`, { input: inputOf(index) }))
  return {
    run,
    refused,
    sandboxTimes,
    close: async () => {
      await runtime.dispose()
      if (store.kind === "postgres") await dropSchema(store.url, schema)
    }
  }
}
