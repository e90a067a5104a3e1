import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import type { AppendResult, Projection, StreamAppend } from "@runledger/core"
import { Effect } from "effect"
import { type AppendArguments, lockNames } from "./appendArguments.js"
import { placeFacts } from "./placeFacts.js"
import { type DocRow, foldDocs, viewKeysOf } from "./projectFacts.js"
import { callText, literal } from "./sqlLiterals.js"

/** What `runledger_prepare` returns. */
interface Prepared {
  readonly versions: Readonly<Record<string, number>>
  readonly global_positions: ReadonlyArray<number>
  readonly docs: ReadonlyArray<DocRow>
}

/**
 * An append whose facts change view documents, in one transaction on one connection and two round trips, each
 * several statements in one text: `BEGIN` with `runledger_prepare` (streams locked and checked, documents locked and
 * read, global positions allocated), the fold, then `runledger_write` (facts, documents, NOTIFY) with `COMMIT`.
 * The documents are guessed from the facts placed at their expected versions (0 for "any") without global
 * positions; those a projection keys by where a fact actually landed are locked and read in one more round trip.
 * Any failure rolls back.
 */
export const appendProjecting = (
  sql: PgClient,
  schema: string,
  projections: ReadonlyArray<Projection>,
  appends: ReadonlyArray<StreamAppend>,
  args: AppendArguments
): Effect.Effect<AppendResult, SqlError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const connection = yield* sql.reserve
      /** Sends statements as text: one statement's rows, or each statement's rows for several. */
      const send = <A>(text: string) => connection.executeUnprepared(text, [], undefined) as Effect.Effect<A, SqlError>
      const call = (name: string, callArgs: ReadonlyArray<string>) => callText(schema, name, callArgs)

      const transaction = Effect.gen(function* () {
        const expected = Object.fromEntries(
          appends.map(({ stream, expected }) => [stream, expected === "any" ? 0 : expected])
        )
        const guessed = viewKeysOf(projections, placeFacts(appends, expected, []).facts)
        const [, [{ result: prepared }]] = yield* send<[[], [{ result: Prepared }]]>(
          `BEGIN; ${call("runledger_prepare", [
            ...args.check,
            lockNames(schema, guessed.keys()),
            literal.json([...guessed.values()]),
            String(args.factCount)
          ])}`
        )
        const placed = placeFacts(appends, prepared.versions, prepared.global_positions)
        const missed = [...viewKeysOf(projections, placed.facts)].filter(([key]) => !guessed.has(key))
        const more =
          missed.length === 0
            ? []
            : (yield* send<[{ result: ReadonlyArray<DocRow> }]>(
                call("runledger_lock_docs", [
                  lockNames(
                    schema,
                    missed.map(([key]) => key)
                  ),
                  literal.json(missed.map(([, key]) => key))
                ])
              ))[0].result
        const changes = foldDocs(projections, placed.facts, [...prepared.docs, ...more])
        yield* send(
          `${call("runledger_write", [
            literal.json(prepared.versions),
            args.newFacts,
            literal.integers(prepared.global_positions, "bigint"),
            literal.json(changes.upserts),
            literal.json(changes.deletions),
            ...args.notify
          ])}; COMMIT`
        )
        return placed
      })

      return yield* transaction.pipe(Effect.onError(() => Effect.ignore(send("ROLLBACK"))))
    })
  )
