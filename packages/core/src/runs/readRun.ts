import { Effect, Option } from "effect"
import { notFound, type Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { RunState } from "./RunRecord.js"
import { runsPartition, runsView } from "./runsProjection.js"

/** Reads a run of the playbook from the runs view, or `not_found`. */
export const readRun = (org: string, playbook: string, runId: string): Effect.Effect<RunState, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const found = yield* storeToRejection(
      views.get({ view: runsView, partition: runsPartition(org, playbook), id: runId.toLowerCase() })
    )
    if (Option.isNone(found)) return yield* Effect.fail(notFound(`The playbook ${playbook} has no run ${runId}.`))
    return found.value.data as RunState
  })
