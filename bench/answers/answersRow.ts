import { randomBytes } from "node:crypto"
import { type ContentStore, Formats, interactionFormat, type Ledger, RunLedger, type Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { PostgresStore } from "../ledger/postgresStore.js"
import { drive } from "../runs/drive.js"
import { dropSchema } from "../shared/dropSchema.js"
import { inProcessClient } from "../shared/inProcessClient.js"
import { FactWatch, ofType, tookCallAnswer, type Watched } from "./factWatch.js"
import { refusingCarry } from "./refusingCarry.js"

/** How a row is laid out: one runtime on memory or Postgres, or two instances on one Postgres database. */
export type RowLayout =
  | { readonly kind: "memory" }
  | { readonly kind: "postgres"; readonly store: Extract<PostgresStore, { available: true }>; readonly url: string }
  | {
      readonly kind: "two instances"
      readonly store: Extract<PostgresStore, { available: true }>
      readonly url: string
      /**
       * Whether the answering instance's ledger refuses to carry a waiting workflow on in the answer's append (ADR
       * 0405), as when another instance moved the workflow first: the answer is then appended alone, and the
       * hosting instance takes it through LISTEN/NOTIFY.
       */
      readonly refuseCarrying?: boolean
    }

/**
 * What waits on each request: the interaction run alone (the answer's mark is its `run_succeeded`), or a workflow
 * whose first step calls the interaction function and whose next step is a `set` (the mark is the workflow's
 * `workflow_input_applied` taking the call's answer, `call_answered`: its next step starting).
 */
export type RowShape = "request" | "workflow"

/** One repetition's figures: pick-up latencies, and what did not go as asked. */
export interface RowSample {
  /** Milliseconds from `request_answered` committed to the shape's mark committed, one per request. */
  readonly latencies: ReadonlyArray<number>
  /** Milliseconds from the answer's 200 reaching the caller to the mark committed, 0 when it came first. */
  readonly after200: ReadonlyArray<number>
  /** Milliseconds the answer's request took, from sending it to its 200. */
  readonly answering: ReadonlyArray<number>
  /** Requests whose mark was committed before their answer's 200 reached the caller. */
  readonly endedBefore200: number
  /** Starts answered other than 200, by status. */
  readonly refusedStarts: string
  /** Starts per second while the requests were opened, `concurrency` in flight in one playbook. */
  readonly startsPerSecond: number
}

/** A row ready to measure: `measure(n)` opens n waiting requests, then answers them one by one. */
export interface AnswersRow {
  readonly measure: (requests: number, concurrency: number) => Promise<RowSample>
  readonly close: () => Promise<void>
}

const playbook = "/v1/orgs/local/playbooks/bench"
const formats = Layer.succeed(Formats, new Map([["interaction", interactionFormat]]))

/** The request each run asks: held for an agent for a day, answered with a decision. */
const askDocument = `---
description: Ask the owner about a refund
to: '{{ input.owner }}'
expires: P1D
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Refund {{ input.cents }} cents for order {{ input.order }}?
`

/** `${` as the workflow writes it; kept out of string literals so the linter reads them as plain text. */
const x = "$" + "{"

/** The workflow of the workflow rows: its first step asks (the interaction function), its next one is a cheap `set`. */
const refundWorkflow = `document:
  dsl: '1.0.3'
  namespace: bench
  name: refund
  version: '1.0.0'
do:
  - ask:
      call: run_definition
      with:
        type: interaction
        name: ask
        input: ${x} $data }
  - record:
      set:
        decided: ${x} $data.decision }
`

/** A client of a runtime's HTTP handler, in-process (no socket): the status and the JSON body. */
const clientOf = (runtime: ManagedRuntime.ManagedRuntime<any, any>) => {
  const request = inProcessClient(runtime)
  return async (method: string, path: string, body: unknown) => {
    const { status, text } = await request(method, path, body)
    return { status, body: text === "" ? undefined : JSON.parse(text) }
  }
}

/** Resolves with the promise's value, or rejects after `millis`. */
const within = <A>(promise: Promise<A>, millis: number, what: string) =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not happen within ${millis} ms`)), millis)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })

/** The watched fact that ends a request's wait, per shape: keyed by the interaction run, or by the workflow run. */
const marks: Record<RowShape, readonly [name: string, watched: Watched]> = {
  request: ["run_succeeded", ofType("run_succeeded")],
  workflow: ["call_answered", tookCallAnswer]
}

/**
 * Opens a row: the runtime that runs the hosts (and whose ledger the watch sees), and for two instances a second
 * runtime on the same database without a host, which takes the answers; the ask function is saved, and for the
 * workflow shape the workflow calling it (the runtimes then have every format, the workflow's among them).
 */
export const openAnswersRow = async (layout: RowLayout, shape: RowShape = "request"): Promise<AnswersRow> => {
  const [mark, marked] = marks[shape]
  const watch = new FactWatch({ request_answered: ofType("request_answered"), [mark]: marked })
  const schema = `bench_${randomBytes(6).toString("hex")}`
  const storeOf = (): Layer.Layer<Ledger | Views | ContentStore, unknown> =>
    layout.kind === "memory" ? MemoryStore.layer : layout.store.layer({ url: layout.url, schema })
  const hosting = ManagedRuntime.make(
    shape === "workflow"
      ? RunLedger.onStore(watch.watching(storeOf()), {})
      : RunLedger.onStore(watch.watching(storeOf()), {}, formats)
  )
  const answering =
    layout.kind === "two instances"
      ? ManagedRuntime.make(
          Layer.merge(
            shape === "workflow" ? RunLedger.layer({}) : RunLedger.layer({}, formats),
            layout.refuseCarrying === true ? refusingCarry(watch.watching(storeOf())) : watch.watching(storeOf())
          )
        )
      : hosting
  const send = clientOf(hosting)
  const answer = clientOf(answering)
  const ok = async (method: string, path: string, body: unknown) => {
    const response = await send(method, path, body)
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
    return response.body
  }
  await ok("POST", "/v1/orgs/local/playbooks", { playbook: "bench", name: "bench" })
  await ok("POST", `${playbook}/definitions/interaction`, {
    name: "ask",
    source: askDocument,
    diagram: "none",
    overview: "Asks."
  })
  if (shape === "workflow")
    await ok("POST", `${playbook}/definitions/workflow`, { name: "refund", source: refundWorkflow })
  await answering.runPromise(Effect.void)
  /** Each workflow run's waiting request, as [request run, workflow run], read from the going interaction runs. */
  const requestsOf = async (workflowRuns: ReadonlyArray<string>) => {
    const requestOf = new Map<string, string>()
    const deadline = performance.now() + 60_000
    const missing = () => workflowRuns.filter((runId) => !requestOf.has(runId)).length
    while (missing() > 0) {
      if (performance.now() > deadline) throw new Error(`${missing()} workflow runs opened no request within 60 s`)
      let cursor: string | null = null
      do {
        const page: any = await ok(
          "GET",
          `${playbook}/runs?type=interaction&status=started&limit=100${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
          undefined
        )
        for (const request of page.runs)
          if (request.within?.run_id !== undefined) requestOf.set(request.within.run_id, request.run_id)
        cursor = page.next_cursor ?? null
      } while (cursor !== null)
      if (missing() > 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return workflowRuns.map((runId) => [requestOf.get(runId)!, runId] as const)
  }
  let order = 0
  return {
    measure: async (requests, concurrency) => {
      const runIds: Array<string> = []
      const refused = new Map<number, number>()
      const started = shape === "workflow" ? "workflow/refund" : "interaction/ask"
      const { seconds } = await drive(requests, concurrency, async () => {
        const input = { owner: "dana", cents: 12_345, order: `A-${order++}` }
        const run = await send("POST", `${playbook}/definitions/${started}/run`, { input })
        if (run.status === 200) runIds.push(run.body.run_id)
        else refused.set(run.status, (refused.get(run.status) ?? 0) + 1)
      })
      const waits = shape === "workflow" ? await requestsOf(runIds) : runIds.map((runId) => [runId, runId] as const)
      const latencies: Array<number> = []
      const after200: Array<number> = []
      const answering: Array<number> = []
      let endedBefore200 = 0
      for (const [request, runId] of waits) {
        const committed = watch.until("request_answered", request)
        const ended = watch.until(mark, runId)
        const sentAt = performance.now()
        const answered = await answer("POST", `${playbook}/runs/${request}/answer`, { answer: { decision: "grant" } })
        const answeredAt = performance.now()
        answering.push(answeredAt - sentAt)
        if (answered.status !== 200)
          throw new Error(`answer ${request}: ${answered.status} ${JSON.stringify(answered.body)}`)
        const endedAt = await within(ended, 60_000, `${mark} of the run ${runId}`)
        latencies.push(endedAt - (await committed))
        if (endedAt < answeredAt) endedBefore200++
        after200.push(Math.max(0, endedAt - answeredAt))
      }
      return {
        latencies,
        after200,
        answering,
        endedBefore200,
        refusedStarts: [...refused].map(([status, count]) => `${count}×${status}`).join(" "),
        startsPerSecond: requests / seconds
      }
    },
    close: async () => {
      if (answering !== hosting) await answering.dispose()
      await hosting.dispose()
      if (layout.kind !== "memory") await dropSchema(layout.url, schema)
    }
  }
}
