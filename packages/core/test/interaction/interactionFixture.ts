import {
  Authenticator,
  dispatch,
  Formats,
  findOperation,
  interactionFormat,
  Ledger,
  type Rejection,
  RunLedger
} from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { type Context, Effect, Either, Layer, Schedule, TestServices } from "effect"
import { testKeys } from "../runtimeFixture.js"

/** The formats of these tests: the interaction format alone. */
export const interactionFormats = Layer.succeed(Formats, new Map([["interaction", interactionFormat]]))

/** An interaction document held for an agent; `extra` lines join its front matter. */
export const askDocument = (extra = "", body = "Refund {{ input.amount | money }} for order {{ input.order }}?") => `---
description: Ask the owner about a refund
to: '{{ input.owner }}'
expires: PT1H
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
${extra}---
${body}
`

/** The input the ask document reads. */
export const askInput = { owner: "dana@example.com", amount: 1234.5, order: "A-17" }

/** The services a runtime's operations run on, as built. */
export type RuntimeContext = Context.Context<any>

/**
 * Helpers over a built runtime: `call` dispatches an operation as the full key in playbook finance (created first),
 * `stream` reads a stream and `facts` a run's, `ended` waits on the real clock until the host ends a run, `run` provides the
 * runtime to an effect.
 */
export const runtimeOn = (context: RuntimeContext) =>
  Effect.gen(function* () {
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
    const caller = yield* run(
      Effect.flatMap(Authenticator, (auth) => auth.authenticate({ bearer: "full", loopback: true }))
    )
    const call = (
      operation: string,
      input: unknown,
      playbook: string | undefined = "finance"
    ): Effect.Effect<Either.Either<any, Rejection>> =>
      run(
        Effect.either(
          Effect.map(
            dispatch({
              operation: findOperation(operation)!,
              caller,
              input,
              origin: "http://127.0.0.1",
              ...(playbook === undefined ? {} : { playbook })
            }),
            (answer) => answer.output
          )
        )
      )
    const ok = (operation: string, input: unknown) =>
      Effect.flatMap(call(operation, input), (result) =>
        Either.isRight(result)
          ? Effect.succeed(result.right)
          : Effect.die(new Error(`${operation}: ${JSON.stringify(result.left)}`))
      )
    const refused = (operation: string, input: unknown) =>
      Effect.flatMap(call(operation, input), (result) =>
        Either.isLeft(result) ? Effect.succeed(result.left) : Effect.die(new Error(`${operation} was not refused`))
      )
    const stream = (name: string) => run(Effect.flatMap(Ledger, (ledger) => ledger.readStream(name)))
    const facts = (runId: string) => stream(`playbook/acme/finance/runs/${runId}`)
    /** Waits, on the real clock, until a run's status is no longer started; the host works in its own fiber. */
    const ended = (runId: string) =>
      TestServices.provideLive(
        ok("get_run", { run_id: runId }).pipe(
          Effect.filterOrFail((found) => found.status !== "started"),
          Effect.retry(Schedule.spaced("5 millis").pipe(Schedule.upTo("3 seconds")))
        )
      )
    yield* call("create_playbook", { playbook: "finance", name: "Finance" }, undefined)
    return { call, ok, refused, stream, facts, ended, run }
  })

/** The settings of these tests' runtimes: the test keys, no local mode. */
export const testSettings = { localMode: false, apiKeys: testKeys }

/**
 * A runtime on the memory store, with its host, built in the calling fiber's scope: under `it.scoped` the host
 * sleeps on the `TestClock`.
 */
export const startRuntime = () =>
  Effect.flatMap(Layer.build(RunLedger.onStore(MemoryStore.layer, testSettings, interactionFormats)), runtimeOn)
