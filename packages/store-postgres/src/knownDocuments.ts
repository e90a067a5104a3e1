import type { ViewKey } from "@runledger/core"
import { forgetOldest } from "./forgetOldest.js"
import { type DocChanges, type DocRow, viewDocKey } from "./projectFacts.js"

/** How many documents an instance remembers (an eighth more for a while); the least recently used are forgotten first. */
const capacity = 4_096

/**
 * How long a document is remembered after it was read or written: far less than PostgreSQL takes to go through
 * the 2^32 transaction ids after which a row's 32-bit `xmin` could repeat.
 */
const keptMillis = 600_000

/**
 * A view document as this instance last read or wrote it (ADR 0409): its row (absent: undefined) and the stamp of
 * that row, its `xmin` (`null` for an absent one). Only what PostgreSQL answered or committed is remembered, so a
 * document is as remembered exactly while its row carries the same stamp.
 */
export interface KnownDocument {
  readonly row: DocRow | undefined
  readonly stamp: string | null
}

/** A document as `runledger_docs_json` reads it: with its row's stamp. */
export interface StampedDocRow extends DocRow {
  readonly stamp?: string
}

/**
 * The view documents this instance knows as they stand, by `viewDocKey`, for appends that need not read them
 * (`appendKnown`). Written only by the appending fiber (`makeAppendBatches` runs one transaction at a time).
 */
export interface KnownDocuments {
  readonly get: (key: string) => KnownDocument | undefined
  /** What a transaction read under its locks: the rows found, and the other keys asked for as absent. */
  readonly read: (keys: Iterable<readonly [string, ViewKey]>, rows: ReadonlyArray<StampedDocRow>) => void
  /** What a committed transaction wrote, stamped with its id as the rows' `xmin` shows it. */
  readonly wrote: (changes: DocChanges, stamp: string) => void
  readonly forget: (keys: Iterable<string>) => void
}

/** An empty memory of documents. */
export const makeKnownDocuments = (): KnownDocuments => {
  const known = new Map<string, KnownDocument & { readonly at: number }>()
  const remember = (key: string, document: KnownDocument, at = Date.now()) => {
    known.delete(key)
    known.set(key, { ...document, at })
    forgetOldest(known, capacity)
  }
  return {
    get: (key) => {
      const document = known.get(key)
      if (document === undefined) return undefined
      if (Date.now() - document.at > keptMillis) {
        known.delete(key)
        return undefined
      }
      remember(key, document, document.at)
      return document
    },
    read: (keys, rows) => {
      const found = new Map(rows.map((row) => [viewDocKey(row), row]))
      for (const [key] of keys) {
        const row = found.get(key)
        if (row === undefined) remember(key, { row: undefined, stamp: null })
        else if (row.stamp === undefined) known.delete(key)
        else
          remember(key, {
            row: { view: row.view, partition: row.partition, id: row.id, sort: row.sort, data: row.data },
            stamp: row.stamp
          })
      }
    },
    wrote: (changes, stamp) => {
      for (const row of changes.upserts) remember(viewDocKey(row), { row, stamp })
      for (const key of changes.deletions) remember(viewDocKey(key), { row: undefined, stamp: null })
    },
    forget: (keys) => {
      for (const key of keys) known.delete(key)
    }
  }
}
