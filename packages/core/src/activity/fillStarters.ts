import { Effect, Option } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import type { RunState } from "../runs/RunRecord.js"
import { runsPartition, runsView } from "../runs/runsProjection.js"
import type { ActivityItem } from "./ActivityRow.js"

/**
 * Gives a request's row and a broken definition's row their `by`, the caller who started the run that asked or
 * that broke, read from the runs view as the page is answered; the other rows carry theirs.
 */
export const fillStarters = (
  org: string,
  items: ReadonlyArray<ActivityItem>
): Effect.Effect<ReadonlyArray<ActivityItem>, Rejection, Views> =>
  Effect.flatMap(Views, (views) =>
    Effect.forEach(items, (item) =>
      item.by !== null || item.run_id === null || item.playbook === null
        ? Effect.succeed(item)
        : Effect.map(
            storeToRejection(
              views.get({ view: runsView, partition: runsPartition(org, item.playbook), id: item.run_id })
            ),
            (found) =>
              Option.match(found, {
                onNone: () => item,
                onSome: (doc) => ({ ...item, by: (doc.data as RunState).started_by.id })
              })
          )
    )
  )
