import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import { type Fact, type Projection, projectFact, projectionsOf, type ViewDoc, type ViewKey } from "@runledger/core"
import { Effect } from "effect"
import type { Tables } from "./Tables.js"

/** What JSON writes otherwise than as itself in a string: a quote, a backslash, a control or surrogate code unit. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const escapedInJson = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * A view document's identity as one string: its view, partition and id as a JSON array, which is also the name of
 * its advisory lock (so it must not change). Parts JSON writes as they are (every key the runtime makes) are joined
 * without going through `JSON.stringify`, which an append's fold calls for hundreds of keys.
 */
export const viewDocKey = (key: ViewKey): string =>
  escapedInJson.test(key.view) || escapedInJson.test(key.partition) || escapedInJson.test(key.id)
    ? JSON.stringify([key.view, key.partition, key.id])
    : `["${key.view}","${key.partition}","${key.id}"]`

/** The view documents one fact changes, by `viewDocKey` (a document several projections key, more than once). */
export const factViewKeys = (
  projections: ReadonlyArray<Projection>,
  fact: Fact
): ReadonlyArray<readonly [string, ViewKey]> => {
  const keys: Array<readonly [string, ViewKey]> = []
  for (const projection of projectionsOf(projections, fact.type))
    for (const key of projection.keys(fact)) keys.push([viewDocKey(key), key])
  return keys
}

/** The view documents the facts change, each once. */
export const viewKeysOf = (
  projections: ReadonlyArray<Projection>,
  facts: ReadonlyArray<Fact>
): ReadonlyMap<string, ViewKey> => new Map(facts.flatMap((fact) => factViewKeys(projections, fact)))

/** A view document as `runledger_docs` returns it and `runledger_write_docs` takes it. */
export interface DocRow {
  readonly view: string
  readonly partition: string
  readonly id: string
  readonly sort: string
  readonly data: unknown
}

/** What a fold changed: the documents to upsert and the keys of those to delete. */
export interface DocChanges {
  readonly upserts: ReadonlyArray<DocRow>
  readonly deletions: ReadonlyArray<ViewKey>
}

/**
 * Folds facts in order through the projections over the documents read (absent ones start undefined). A document
 * that was not stored and is left undefined is no deletion: nothing is sent for it.
 */
export const foldDocs = (
  projections: ReadonlyArray<Projection>,
  facts: ReadonlyArray<Fact>,
  rows: ReadonlyArray<DocRow>
): DocChanges => {
  // A projection reads and writes a document by the key object it made: its string is worked out once.
  const strings = new WeakMap<ViewKey, string>()
  const stringOf = (key: ViewKey): string => {
    let string = strings.get(key)
    if (string === undefined) {
      string = viewDocKey(key)
      strings.set(key, string)
    }
    return string
  }
  const docs = new Map<string, ViewDoc | undefined>()
  for (const row of rows) docs.set(stringOf(row), { id: row.id, sort: row.sort, data: row.data })
  const stored = new Set(docs.keys())
  const changed = new Map<string, { readonly key: ViewKey; readonly doc: ViewDoc | undefined }>()
  for (const fact of facts)
    projectFact(
      projections,
      fact,
      (key) => docs.get(stringOf(key)),
      (key, doc) => {
        const string = stringOf(key)
        docs.set(string, doc)
        changed.set(string, { key, doc })
      }
    )
  const upserts: Array<DocRow> = []
  const deletions: Array<ViewKey> = []
  for (const [docKey, { key, doc }] of changed)
    if (doc === undefined) {
      if (stored.has(docKey)) deletions.push({ view: key.view, partition: key.partition, id: key.id })
    } else upserts.push({ view: key.view, partition: key.partition, id: key.id, sort: doc.sort, data: doc.data })
  return { upserts, deletions }
}

/**
 * Folds facts through the projections inside the caller's transaction, for a rebuild (which holds the views
 * `EXCLUSIVE`): reads the documents they touch, folds the facts, and writes the changed documents.
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
    const [{ docs }] = yield* sql<{ docs: ReadonlyArray<DocRow> }>`SELECT ${sql(`${tables.schema}.runledger_docs`)}(
      ${JSON.stringify(keys)}::jsonb) AS docs`
    const { upserts, deletions } = foldDocs(projections, facts, docs)
    yield* sql`SELECT ${sql(`${tables.schema}.runledger_write_docs`)}(${JSON.stringify(upserts)}::jsonb,
      ${JSON.stringify(deletions)}::jsonb)`
  })
