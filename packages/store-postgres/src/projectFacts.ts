import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import { type Fact, type Projection, projectFact, type ViewDoc, type ViewKey } from "@runledger/core"
import { Effect } from "effect"
import type { Tables } from "./Tables.js"

/** A view document's identity as one string: its view, partition and id. */
export const viewDocKey = (key: ViewKey): string => JSON.stringify([key.view, key.partition, key.id])

/** The view documents the facts change, each once. */
export const viewKeysOf = (
  projections: ReadonlyArray<Projection>,
  facts: ReadonlyArray<Fact>
): ReadonlyMap<string, ViewKey> => {
  const keys = new Map<string, ViewKey>()
  for (const fact of facts)
    for (const projection of projections)
      if (projection.types.includes(fact.type)) for (const key of projection.keys(fact)) keys.set(viewDocKey(key), key)
  return keys
}

interface DocRow {
  readonly view: string
  readonly partition: string
  readonly id: string
  readonly sort: string
  readonly data: unknown
}

/**
 * Folds facts through the projections inside the caller's transaction: selects the documents they touch
 * `FOR UPDATE` (which also holds off a rebuild), applies the facts in order to an in-memory copy, then upserts the
 * changed documents and deletes the removed ones.
 */
export const projectFacts = (
  sql: PgClient,
  tables: Tables,
  projections: ReadonlyArray<Projection>,
  facts: ReadonlyArray<Fact>
): Effect.Effect<void, SqlError> =>
  Effect.gen(function* () {
    const keys = [...viewKeysOf(projections, facts).values()]
    if (keys.length === 0) return
    const rows = yield* sql<DocRow>`SELECT v.view, v.partition, v.id, v.sort, v.data
      FROM ${tables.views} AS v
      JOIN jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) AS k(view text, partition text, id text)
        ON v.view = k.view AND v.partition = k.partition AND v.id = k.id
      FOR UPDATE OF v`
    const docs = new Map<string, ViewDoc | undefined>(
      rows.map((row) => [viewDocKey(row), { id: row.id, sort: row.sort, data: row.data }])
    )
    const changed = new Map<string, { readonly key: ViewKey; readonly doc: ViewDoc | undefined }>()
    for (const fact of facts)
      projectFact(
        projections,
        fact,
        (key) => docs.get(viewDocKey(key)),
        (key, doc) => {
          docs.set(viewDocKey(key), doc)
          changed.set(viewDocKey(key), { key, doc })
        }
      )
    const upserts = [...changed.values()].flatMap(({ key, doc }) =>
      doc === undefined
        ? []
        : [{ view: key.view, partition: key.partition, id: key.id, sort: doc.sort, data: doc.data }]
    )
    const deletions = [...changed.values()].flatMap(({ key, doc }) => (doc === undefined ? [key] : []))
    if (upserts.length > 0)
      yield* sql`INSERT INTO ${tables.views} (view, partition, id, sort, data)
        SELECT d.view, d.partition, d.id, d.sort, coalesce(d.data, 'null'::jsonb)
        FROM jsonb_to_recordset(${JSON.stringify(upserts)}::jsonb)
          AS d(view text, partition text, id text, sort text, data jsonb)
        ON CONFLICT (view, partition, id) DO UPDATE SET sort = excluded.sort, data = excluded.data`
    if (deletions.length > 0)
      yield* sql`DELETE FROM ${tables.views} AS v
        USING jsonb_to_recordset(${JSON.stringify(deletions)}::jsonb) AS k(view text, partition text, id text)
        WHERE v.view = k.view AND v.partition = k.partition AND v.id = k.id`
  })
