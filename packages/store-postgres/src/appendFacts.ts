import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import type { AppendResult, Projection, StoreUnavailable, StreamAppend, VersionConflict } from "@runledger/core"
import { Effect } from "effect"
import { type DocRow, foldDocs, viewKeysOf } from "./projectFacts.js"
import { placeFacts } from "./placeFacts.js"
import { refusedAppend } from "./refusedAppend.js"
import { callText, literal } from "./sqlLiterals.js"
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

/** What `runledger_append` and `runledger_prepare` return (`docs` for the latter). */
interface Prepared {
  readonly versions: Readonly<Record<string, number>>
  readonly global_positions: ReadonlyArray<number>
  readonly docs?: ReadonlyArray<DocRow>
}

/**
 * Appends in one transaction through the functions `appendFunctions.ts` creates. Facts that no projection reads
 * take one statement in autocommit (`runledger_append`: lock the streams, check their versions, insert, NOTIFY).
 * Facts that change view documents take two round trips on one connection: `BEGIN` with `runledger_prepare` (lock
 * the streams, check, lock and read the documents, allocate the global positions), the fold here, then
 * `runledger_write` (insert, write the documents, NOTIFY) with `COMMIT`. Documents whose keys depend on where the
 * facts landed and were not guessed before take one more round trip. Subscribers of this instance are woken after
 * the commit.
 */
export const appendFacts = ({ sql, tables, projections, wakeups }: AppendContext) => {
  const projectedTypes = new Set(projections.flatMap((projection) => projection.types))
  const call = (name: string, args: ReadonlyArray<string>) => callText(tables.schema, name, args)
  const lockNames = (keys: Iterable<string>) => literal.texts([...keys].map((key) => JSON.stringify([tables.schema, key])))

  return (appends: ReadonlyArray<StreamAppend>): Effect.Effect<AppendResult, VersionConflict | StoreUnavailable> => {
    const streams = appends.map((entry) => entry.stream)
    // A version that is not an integer is no stream's: -1 makes the check refuse it with the stream's version.
    const check = [
      lockNames(new Set(streams)),
      literal.texts(streams),
      literal.integers(
        appends.map(({ expected }) => (expected === "any" ? null : Number.isSafeInteger(expected) ? expected : -1)),
        "int"
      )
    ]
    const newFacts = literal.json(
      appends.flatMap(({ stream, facts }, append) =>
        facts.map((fact) => ({
          append,
          stream,
          id: fact.id,
          type: fact.type,
          data: fact.data,
          metadata: fact.metadata
        }))
      )
    )
    const notify = [literal.text(wakeups.channel), literal.texts(wakeups.payloads(streams))]
    const factCount = appends.reduce((count, { facts }) => count + facts.length, 0)

    const alone: Effect.Effect<AppendResult, SqlError> = Effect.map(
      sql.unsafe<{ result: Prepared }>(call("runledger_append", [...check, newFacts, ...notify])),
      ([{ result }]) => placeFacts(appends, result.versions, result.global_positions)
    )

    const projecting: Effect.Effect<AppendResult, SqlError> = Effect.scoped(
      Effect.gen(function* () {
        const connection = yield* sql.reserve
        /** Sends statements as text: one statement's rows, or each statement's rows for several. */
        const send = <A>(text: string) => connection.executeUnprepared(text, [], undefined) as Effect.Effect<A, SqlError>
        const transaction = Effect.gen(function* () {
          // Keys guessed from the expected versions (0 for "any") and no global positions: they hold unless a
          // projection keys documents by where a fact lands.
          const guessed = viewKeysOf(
            projections,
            placeFacts(
              appends,
              Object.fromEntries(appends.map(({ stream, expected }) => [stream, expected === "any" ? 0 : expected])),
              []
            ).facts
          )
          const [, [{ result: prepared }]] = yield* send<[[], [{ result: Prepared }]]>(
            `BEGIN; ${call("runledger_prepare", [
              ...check,
              lockNames(guessed.keys()),
              literal.json([...guessed.values()]),
              String(factCount)
            ])}`
          )
          const placed = placeFacts(appends, prepared.versions, prepared.global_positions)
          const missed = [...viewKeysOf(projections, placed.facts)].filter(([key]) => !guessed.has(key))
          const more: ReadonlyArray<DocRow> =
            missed.length === 0
              ? []
              : (yield* send<[{ result: ReadonlyArray<DocRow> }]>(
                  call("runledger_lock_docs", [
                    lockNames(missed.map(([key]) => key)),
                    literal.json(missed.map(([, key]) => key))
                  ])
                ))[0].result
          const changes = foldDocs(projections, placed.facts, [...(prepared.docs ?? []), ...more])
          yield* send(
            `${call("runledger_write", [
              literal.json(prepared.versions),
              newFacts,
              literal.integers(prepared.global_positions, "bigint"),
              literal.json(changes.upserts),
              literal.json(changes.deletions),
              ...notify
            ])}; COMMIT`
          )
          return placed
        })
        return yield* transaction.pipe(Effect.onError(() => Effect.ignore(send<[]>("ROLLBACK"))))
      })
    )

    const touchesViews = appends.some(({ facts }) => facts.some((fact) => projectedTypes.has(fact.type)))
    return (touchesViews ? projecting : alone).pipe(
      Effect.tap(() => wakeups.publish(streams)),
      refusedAppend(appends),
      unavailable("appending facts")
    )
  }
}
