import { dispatch, Formats, findOperation, interactionFormat, Ledger, type Rejection } from "@runledger/core"
import { Clock, Effect, Either, Layer } from "effect"
import { echoFormat } from "../echoFormat.js"
import { makeRuntime } from "../runtimeFixture.js"

/** The formats of these tests: echo computations, and real interaction functions that wait on an answer. */
const formats = Layer.succeed(
  Formats,
  new Map([
    ["computation", echoFormat("computation")],
    ["interaction", interactionFormat]
  ])
)

/** An interaction document held for an agent, to the party its input names. */
export const askDocument = `---
description: Ask about a refund
to: '{{ input.to }}'
expires: PT1H
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Refund order {{ input.order }}?
It is overdue.
`

const day = 24 * 60 * 60 * 1000

/**
 * A runtime with the playbooks finance, sales and archive, whose clock runs `shift` milliseconds off the real
 * one, and helpers to call operations as a key in the org or in a playbook.
 */
export const makeActivityFixture = async () => {
  const fixture = makeRuntime({}, formats)
  const offset = { millis: 0 }
  const clock = Clock.make()
  Object.assign(clock, {
    unsafeCurrentTimeMillis: () => Date.now() + offset.millis,
    unsafeCurrentTimeNanos: () => BigInt(Date.now() + offset.millis) * 1_000_000n
  })
  const call = async (
    operation: string,
    input: unknown,
    options: { readonly key?: string; readonly playbook?: string } = {}
  ): Promise<Either.Either<any, Rejection>> => {
    const caller = await fixture.callerOf(options.key ?? "full")
    const found = findOperation(operation)
    if (found === undefined) throw new Error(`no operation ${operation}`)
    const answer = await fixture.runtime.runPromise(
      Effect.either(
        dispatch({
          operation: found,
          caller,
          input,
          origin: "http://127.0.0.1:4100",
          ...(options.playbook === undefined ? {} : { playbook: options.playbook })
        }).pipe(Effect.withClock(clock))
      )
    )
    return Either.map(answer, (answered) => answered.output)
  }
  const ok = async (operation: string, input: unknown, options: { key?: string; playbook?: string } = {}) => {
    const result = await call(operation, input, options)
    if (Either.isLeft(result)) throw new Error(`${operation} refused: ${JSON.stringify(result.left)}`)
    return result.right
  }
  const refused = async (operation: string, input: unknown, options: { key?: string; playbook?: string } = {}) => {
    const result = await call(operation, input, options)
    if (Either.isRight(result))
      throw new Error(`${operation} was expected to be refused: ${JSON.stringify(result.right)}`)
    return result.left
  }
  for (const playbook of ["finance", "sales", "archive"]) await ok("create_playbook", { playbook, name: playbook })
  /** Saves a definition in a playbook. */
  const save = (type: string, name: string, source: string, playbook = "finance") =>
    ok("create_definition", { type, name, source, diagram: "none" }, { playbook })
  /** Runs a definition in a playbook, answering the run or the refusal. */
  const run = (name: string, input: unknown, playbook = "finance", type = "computation", key = "full") =>
    call("run_definition", { type, name, input }, { playbook, key })
  /** Reads the activity as a key. */
  const list = (input: Record<string, unknown> = {}, key = "full") => ok("list_activity", input, { key })
  /** Marks activity seen as a key. */
  const mark = (input: Record<string, unknown>, key = "full") => ok("mark_activity_seen", input, { key })
  /** Every fact of the ledger. */
  const facts = async () =>
    (
      await fixture.runtime.runPromise(
        Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 1_000_000 }))
      )
    ).map((positioned) => positioned.fact)
  /** Moves the clock a number of days off the real one (negative for the past). */
  const shiftDays = (days: number) => {
    offset.millis = days * day
  }
  return { ...fixture, call, ok, refused, save, run, list, mark, facts, shiftDays }
}

export type ActivityFixture = Awaited<ReturnType<typeof makeActivityFixture>>
