import type { PgClient } from "@effect/sql-pg/PgClient"
import {
  type AppendOptions,
  type AppendResult,
  type Projection,
  type StoreUnavailable,
  type StreamAppend,
  type VersionConflict,
  wakeupOf
} from "@runledger/core"
import { Effect } from "effect"
import { newFactsLiteral, noNotifications, streamChecks } from "./appendArguments.js"
import { makeAppendBatches } from "./appendBatches.js"
import { appendProjecting } from "./appendProjecting.js"
import { makeKnownDocuments } from "./knownDocuments.js"
import { placeFacts } from "./placeFacts.js"
import { refusedAppend } from "./refusedAppend.js"
import { callText } from "./sqlLiterals.js"
import { makeStreamVersions, seenBy } from "./streamVersions.js"
import type { Tables } from "./Tables.js"
import { unavailable } from "./unavailable.js"
import type { Wakeups } from "./Wakeups.js"

/** What an append needs: the client, the tables, the inline projections and the wake-ups. */
export interface AppendContext {
  readonly sql: PgClient
  readonly tables: Tables
  readonly projections: ReadonlyArray<Projection>
  readonly wakeups: Wakeups
}

/** What `runledger_append` returns. */
interface Appended {
  readonly versions: Readonly<Record<string, number>>
  readonly global_positions: ReadonlyArray<number>
}

/**
 * Appends in one transaction through the functions `appendFunctions.ts` creates. Facts that no projection reads
 * take one statement in autocommit, `runledger_append` (lock the streams, check their versions, allocate the global
 * positions, insert); facts that change view documents take one statement when this instance knows the documents
 * as they stand, else two round trips (`appendProjecting`, ADR 0409), committed together with the other such
 * appends made meanwhile (`makeAppendBatches`, ADR 0407). A refusal is a
 * `VersionConflict`, without a round trip when this instance saw a stream pass the version expected (ADR 0410). After
 * the commit, subscribers of this instance are woken and the other instances notified.
 */
export const appendFacts = ({ sql, tables, projections, wakeups }: AppendContext) =>
  Effect.gen(function* () {
    const projectedTypes = new Set(projections.flatMap((projection) => projection.types))
    const notify = noNotifications(wakeups)
    const versions = makeStreamVersions()
    const context = { sql, schema: tables.schema, projections, known: makeKnownDocuments(), versions, notify }
    const appendBatched = yield* makeAppendBatches((batch) => appendProjecting(context, batch), versions)
    return (
      appends: ReadonlyArray<StreamAppend>,
      options?: AppendOptions
    ): Effect.Effect<AppendResult, VersionConflict | StoreUnavailable> =>
      Effect.suspend(() => {
        const touchesViews = appends.some(({ facts }) => facts.some((fact) => projectedTypes.has(fact.type)))
        const stale = versions.staleOf(appends)
        if (stale !== undefined) return Effect.fail(stale)
        const appended = touchesViews
          ? appendBatched(appends)
          : sql
              .unsafe<{ result: Appended }>(
                callText(tables.schema, "runledger_append", [
                  ...streamChecks(tables.schema, appends),
                  newFactsLiteral(appends),
                  ...notify
                ])
              )
              .pipe(
                Effect.map(([{ result }]) => placeFacts(appends, result.versions, result.global_positions)),
                refusedAppend(appends),
                unavailable("appending facts"),
                seenBy(versions, appends)
              )
        return Effect.tap(appended, () => wakeups.publish(wakeupOf(appends, options)))
      })
  })
