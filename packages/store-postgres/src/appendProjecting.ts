import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import { type AppendResult, type Projection, type StreamAppend, VersionConflict } from "@runledger/core"
import { Effect, Either } from "effect"
import { lockNames, newFactsLiteral } from "./appendArguments.js"
import { refusedState, staleState } from "./appendFunctions.js"
import { knownAppend } from "./appendKnown.js"
import type { KnownDocuments, StampedDocRow } from "./knownDocuments.js"
import { factCountOf, placeFacts } from "./placeFacts.js"
import { type DocRow, foldDocs, viewKeysOf } from "./projectFacts.js"
import { refusedWith } from "./refusedAppend.js"
import { callText, literal } from "./sqlLiterals.js"
import type { StreamVersions } from "./streamVersions.js"

/** What `runledger_prepare` returns. */
interface Prepared {
  readonly versions: Readonly<Record<string, number>>
  readonly global_positions: ReadonlyArray<number>
  readonly docs: ReadonlyArray<StampedDocRow>
}

/**
 * What a projecting append needs: the client, the schema, the projections, the documents known, the streams written
 * here, the NOTIFY.
 */
export interface ProjectingContext {
  readonly sql: PgClient
  readonly schema: string
  readonly projections: ReadonlyArray<Projection>
  readonly known: KnownDocuments
  /** The streams this instance appended every fact of (ADR 0415). */
  readonly versions: StreamVersions
  /** `channel` and `payloads` of the append functions (`noNotifications`). */
  readonly notify: ReadonlyArray<string>
}

/** What `runledger_append_known` returns. */
interface AppendedKnown {
  readonly versions: Readonly<Record<string, number>>
  readonly global_positions: ReadonlyArray<number>
  readonly stamp: string
}

/**
 * Appends whose facts change view documents (see `appendRead`), in one statement when this instance knows the
 * documents as they stand (`knownAppend`, ADR 0409). When one changed since, or a batch of several meets a refusal,
 * the batch goes the way that reads the documents; so does a batch whose documents are not all known.
 */
export const appendProjecting = (
  context: ProjectingContext,
  batch: ReadonlyArray<ReadonlyArray<StreamAppend>>
): Effect.Effect<ReadonlyArray<BatchedAppend>, SqlError> =>
  Effect.suspend(() => {
    const { sql, schema, projections, known, versions, notify } = context
    const read = appendRead(context, batch)
    const attempt = knownAppend(schema, projections, known, versions.wroteAll, batch, notify)
    if (attempt === undefined) return read
    return sql.unsafe<{ result: AppendedKnown }>(attempt.text).pipe(
      Effect.map(([{ result }]) => {
        known.read(attempt.takenAbsent, [])
        known.wrote(attempt.changes, result.stamp)
        const versions = new Map(Object.entries(result.versions))
        let allocated = 0
        return batch.map((appends) => {
          const count = factCountOf(appends)
          const positions = result.global_positions.slice(allocated, allocated + count)
          allocated += count
          return Either.right(placeFacts(appends, versions, positions))
        })
      }),
      Effect.tapError(() =>
        Effect.sync(() => {
          known.forget(attempt.keys)
          // A document taken for absent was there after all: its streams are not taken as written here only.
          if (attempt.takenAbsent.length > 0) versions.disown(batch.flat().map(({ stream }) => stream))
        })
      ),
      Effect.catchIf(
        (error) => refusedWith(staleState)(error) || (batch.length > 1 && refusedWith(refusedState)(error)),
        () => read
      )
    )
  })

/** What one append of a batch came to: its facts as placed, or the conflict that refused it (it wrote nothing). */
export type BatchedAppend = Either.Either<AppendResult, VersionConflict>

/** The first stream of an append that is not at its expected version, as its conflict. */
const conflictOf = (
  appends: ReadonlyArray<StreamAppend>,
  versions: ReadonlyMap<string, number>
): VersionConflict | undefined => {
  for (const { stream, expected } of appends) {
    const actual = versions.get(stream) ?? 0
    if (expected !== "any" && expected !== actual) return new VersionConflict({ stream, expected, actual })
  }
  return undefined
}

/**
 * Appends whose facts change view documents, in one transaction on one connection and two round trips, each
 * several statements in one text: `BEGIN` with `runledger_prepare` (the streams of every append locked and their
 * versions read, documents locked and read, global positions allocated), then, in JavaScript, each append checked
 * in order against the versions the appends before it left (ADR 0407: a refused one is left out, the others commit
 * together) and the accepted facts folded, then `runledger_write` (facts, documents) with `COMMIT`. The documents are
 * guessed from the facts placed at their expected versions (0 for "any") without global positions; those a
 * projection keys by where a fact actually landed are locked and read in one more round trip. Any failure rolls
 * back; a fact id the ledger already holds fails the whole transaction with `RL409`. The documents read and written
 * are remembered with their stamps (`KnownDocuments`), those of a transaction that failed forgotten.
 */
const appendRead = (
  { sql, schema, projections, known, notify }: ProjectingContext,
  batch: ReadonlyArray<ReadonlyArray<StreamAppend>>
): Effect.Effect<ReadonlyArray<BatchedAppend>, SqlError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const connection = yield* sql.reserve
      /** Sends statements as text: one statement's rows, or each statement's rows for several. */
      const send = <A>(text: string) => connection.executeUnprepared(text, [], undefined) as Effect.Effect<A, SqlError>
      const call = (name: string, callArgs: ReadonlyArray<string>) => callText(schema, name, callArgs)

      /** The documents this transaction locked: forgotten if it fails, since it may have written them. */
      const touched: Array<string> = []
      const transaction = Effect.gen(function* () {
        const streams = [...new Set(batch.flatMap((appends) => appends.map(({ stream }) => stream)))]
        const guessed = viewKeysOf(
          projections,
          batch.flatMap(
            (appends) =>
              placeFacts(
                appends,
                new Map(appends.map(({ stream, expected }) => [stream, expected === "any" ? 0 : expected])),
                []
              ).facts
          )
        )
        const [, [{ result: prepared }]] = yield* send<[[], [{ result: Prepared }]]>(
          `BEGIN; ${call("runledger_prepare", [
            lockNames(schema, streams),
            literal.texts(streams),
            literal.integers(
              streams.map(() => null),
              "int"
            ),
            lockNames(schema, guessed.keys()),
            literal.json([...guessed.values()]),
            String(batch.reduce((count, appends) => count + factCountOf(appends), 0))
          ])}`
        )
        touched.push(...guessed.keys())
        known.read(guessed, prepared.docs)
        const versions = new Map(Object.entries(prepared.versions))
        const decided: Array<BatchedAppend> = []
        const accepted: Array<StreamAppend> = []
        let allocated = 0
        for (const appends of batch) {
          const conflict = conflictOf(appends, versions)
          if (conflict !== undefined) {
            decided.push(Either.left(conflict))
            continue
          }
          const count = factCountOf(appends)
          const placed = placeFacts(appends, versions, prepared.global_positions.slice(allocated, allocated + count))
          allocated += count
          for (const [stream, version] of placed.versions) versions.set(stream, version)
          accepted.push(...appends)
          decided.push(Either.right(placed))
        }
        const facts = decided.flatMap((result) => (Either.isRight(result) ? result.right.facts : []))
        if (facts.length === 0) {
          yield* send("ROLLBACK")
          return decided
        }
        const missed = [...viewKeysOf(projections, facts)].filter(([key]) => !guessed.has(key))
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
        touched.push(...missed.map(([key]) => key))
        known.read(missed, more)
        const changes = foldDocs(projections, facts, [...prepared.docs, ...more])
        const [[{ result: stamp }]] = yield* send<[[{ result: string }], []]>(
          `${call("runledger_write_stamped", [
            literal.json(prepared.versions),
            newFactsLiteral(accepted),
            literal.integers(
              facts.map((fact) => fact.metadata.global_position),
              "bigint"
            ),
            literal.json(changes.upserts),
            literal.json(changes.deletions),
            ...notify
          ])}; COMMIT`
        )
        known.wrote(changes, stamp)
        return decided
      })

      return yield* transaction.pipe(
        Effect.onError(() =>
          Effect.zipRight(
            Effect.sync(() => known.forget(touched)),
            Effect.ignore(send("ROLLBACK"))
          )
        )
      )
    })
  )
