import { Effect, Option } from "effect"
import type { Caller } from "../domain/Caller.js"
import { forbidden, notFound, type Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { PlaybookRecord } from "./PlaybookRecord.js"
import { playbooksView } from "./playbooksProjection.js"

/** Reads one playbook of the org from its view, refusing one the caller may not reach or the org does not have. */
export const readPlaybook = (
  org: string,
  id: string,
  caller: Caller
): Effect.Effect<PlaybookRecord, Rejection, Views> =>
  Effect.gen(function* () {
    if (!caller.mayAccess(id))
      return yield* Effect.fail(forbidden(`This credential may not act on the playbook ${id}.`))
    const views = yield* Views
    const found = yield* storeToRejection(views.get({ view: playbooksView, partition: org, id }))
    if (Option.isNone(found)) return yield* Effect.fail(notFound(`The org ${org} has no playbook ${id}.`))
    return found.value.data as PlaybookRecord
  })
