import { Effect, Either, Option, Schema } from "effect"
import type { Caller } from "../domain/Caller.js"
import { conflict, forbidden, notFound, type Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import type { PlaybookRecord } from "../playbooks/PlaybookRecord.js"
import { playbooksView } from "../playbooks/playbooksProjection.js"
import { Views } from "../ports/Views.js"
import { decodeInput } from "./decodeInput.js"
import { refusedOnDirectory } from "./directoryListing.js"
import { type Operation, permissionsOf } from "./Operation.js"
import type { OperationServices } from "./OperationServices.js"
import { refuseUnkeptText } from "./unkeptText.js"

/** One call of an operation, as an adapter hands it over after authenticating its caller. */
export interface OperationCall {
  readonly operation: Operation
  readonly caller: Caller
  /** The org the route names; absent where the org is the caller's own (`/mcp`). */
  readonly org?: string
  /** The playbook a playbook-scoped operation acts in. */
  readonly playbook?: string
  /** The input as the request gave it, path parameters and body or query together. */
  readonly input: unknown
  /** The origin the request arrived at. */
  readonly origin: string
  /** The listing the call came through: the directory listing leaves some definition types out. */
  readonly listing?: "directory"
}

/** A call's answer: the operation's output encoded to JSON, and its words for an agent. */
export interface OperationAnswer {
  readonly status: 200 | 201
  readonly output: unknown
  readonly summary: string
  /** Words the agent relays whole, when the output holds some. */
  readonly relay: string | undefined
}

/** Whether a caller holds one of the permissions an operation needs ("none" needs none). */
export const mayCall = (operation: Operation, caller: Caller): boolean => {
  const needed = permissionsOf(operation)
  return needed.length === 0 || needed.some((permission) => caller.holds(permission))
}

/** The permissions a caller lacks for an operation, in words. */
const lacking = (operation: Operation, caller: Caller): Rejection | undefined => {
  if (mayCall(operation, caller)) return undefined
  const needed = permissionsOf(operation)
  return forbidden(
    `${operation.name} needs the permission ${needed.join(" or ")}, which this credential does not hold.`
  )
}

/** Reads the playbook a call acts in, refusing what the caller may not reach and commands in a retired one. */
const playbookOf = (
  operation: Operation,
  caller: Caller,
  org: string,
  id: string | undefined
): Effect.Effect<PlaybookRecord, Rejection, Views> =>
  Effect.gen(function* () {
    if (id === undefined) return yield* Effect.fail(notFound("Name the playbook this operation acts in."))
    if (!caller.mayAccess(id))
      return yield* Effect.fail(forbidden(`This credential may not act on the playbook ${id}.`))
    const views = yield* Views
    const found = yield* storeToRejection(views.get({ view: playbooksView, partition: org, id }))
    if (Option.isNone(found)) return yield* Effect.fail(notFound(`The org ${org} has no playbook ${id}.`))
    const playbook = found.value.data as PlaybookRecord
    if (operation.kind === "command" && playbook.status === "retired")
      return yield* Effect.fail(
        conflict(
          `The playbook ${id} is retired; restore it with restore_playbook before changing anything in it.`,
          "retired"
        )
      )
    return playbook
  })

/**
 * Runs one call through the pipeline every operation shares: check the org, the permission and the playbook,
 * refuse commands in a retired playbook, decode the input, run the handler, encode the output.
 */
export const dispatch = (call: OperationCall): Effect.Effect<OperationAnswer, Rejection, OperationServices> =>
  Effect.gen(function* () {
    const { operation, caller } = call
    const org = call.org ?? caller.org
    if (org !== caller.org)
      return yield* Effect.fail(forbidden(`This credential acts in the org ${caller.org}, not in ${org}.`))
    const refusal = lacking(operation, caller)
    if (refusal !== undefined) return yield* Effect.fail(refusal)
    const playbook =
      operation.scope === "playbook" ? yield* playbookOf(operation, caller, org, call.playbook) : undefined
    const input = decodeInput(operation.input, call.input ?? {})
    if (Either.isLeft(input)) return yield* Effect.fail(input.left)
    const unkept = refuseUnkeptText(call.input)
    if (unkept !== undefined) return yield* Effect.fail(unkept)
    const hidden = call.listing === "directory" ? refusedOnDirectory(input.right) : undefined
    if (hidden !== undefined) return yield* Effect.fail(hidden)
    const output = yield* operation.handle(input.right, { caller, org, playbook, origin: call.origin })
    // Encoded without an effect of its own: every output schema is synchronous (ADR 0298).
    const encoded = Schema.encodeEither(operation.output)(output)
    if (Either.isLeft(encoded)) return yield* Effect.die(encoded.left)
    return {
      status: operation.success,
      output: encoded.right,
      summary: clip(operation.summarize(output, input.right), 400),
      relay: operation.relay?.(output)
    }
  })

/** Cuts words to a bound, ending with an ellipsis when cut. */
const clip = (words: string, bound: number): string =>
  words.length <= bound ? words : `${words.slice(0, bound - 1).trimEnd()}…`
