import type { Fact, Projection, StreamAppend, ViewKey } from "@runledger/core"
import { lockNames, newFactsLiteral, streamChecks } from "./appendArguments.js"
import type { KnownDocuments } from "./knownDocuments.js"
import { placeFacts } from "./placeFacts.js"
import { type DocChanges, type DocRow, factViewKeys, foldDocs } from "./projectFacts.js"
import { callText, literal } from "./sqlLiterals.js"

/** An append of known documents, ready to send: its statement, and what it writes once it went through. */
export interface KnownAppend {
  readonly text: string
  readonly changes: DocChanges
  /** The documents the statement was told of (for forgetting them when it finds one changed). */
  readonly keys: ReadonlyArray<string>
  /** The documents it took for absent without knowing them: so they stood when it went through (ADR 0415). */
  readonly takenAbsent: ReadonlyArray<readonly [string, ViewKey]>
}

/**
 * The facts of a batch placed at their expected versions, before their global positions are known: reading one's
 * `global_position` (a projection that keeps or compares it, or copies the whole metadata) calls `read`.
 */
const placedWatched = (batch: ReadonlyArray<ReadonlyArray<StreamAppend>>, read: () => void): ReadonlyArray<Fact> =>
  batch.flatMap((appends) =>
    placeFacts(appends, new Map(appends.map(({ stream, expected }) => [stream, expected as number])), []).facts.map(
      (fact) => ({
        ...fact,
        metadata: Object.defineProperty({ ...fact.metadata }, "global_position", {
          enumerable: true,
          get: () => {
            read()
            return 0
          }
        })
      })
    )
  )

/**
 * The one statement that appends a batch without reading its documents (ADR 0409), or undefined when it cannot:
 * every stream must be at a number of its own (so the facts' stream positions are known before they are written),
 * and every document the facts change must be known to this instance, or else belong to a fact of a stream this
 * instance wrote all of — a new one (version 0), or one whose every fact it appended itself (`wroteAll`, ADR 0415) —
 * and so be taken for absent: a document of such a stream that this instance never saw is one nobody made. The facts'
 * global positions are allocated by the statement, after
 * the fold, so it goes this way only when the fold read none of them (their keys and the stringified documents
 * included: `upserts` is written out before the check). The statement checks the streams and every document's stamp
 * under their locks: a document that changed since makes it refuse with `RL412` and write nothing.
 */
export const knownAppend = (
  schema: string,
  projections: ReadonlyArray<Projection>,
  known: KnownDocuments,
  wroteAll: (stream: string, version: number) => boolean,
  batch: ReadonlyArray<ReadonlyArray<StreamAppend>>,
  notify: ReadonlyArray<string>
): KnownAppend | undefined => {
  const entries = batch.flat()
  if (!entries.every(({ expected }) => expected !== "any" && Number.isSafeInteger(expected))) return undefined
  // Two appends of one stream: the second must see the first's facts, which only `appendProjecting` checks.
  const streamsOfAppends = batch.map((appends) => new Set(appends.map(({ stream }) => stream)))
  if (
    new Set(streamsOfAppends.flatMap((streams) => [...streams])).size !==
    streamsOfAppends.reduce((n, streams) => n + streams.size, 0)
  )
    return undefined
  let positionsRead = false
  const facts = placedWatched(batch, () => {
    positionsRead = true
  })
  const factKeys = facts.map((fact) => factViewKeys(projections, fact))
  const keys = new Map(factKeys.flat())
  const rows: Array<DocRow> = []
  const stamps: Array<ViewKey & { readonly stamp: string | null }> = []
  const whollyHere = new Set(
    entries
      .filter(({ stream, expected }) => expected === 0 || wroteAll(stream, expected as number))
      .map(({ stream }) => stream)
  )
  const onWhollyHere = new Set(
    factKeys.flatMap((ofFact, index) =>
      whollyHere.has(facts[index]!.metadata.stream) ? ofFact.map(([key]) => key) : []
    )
  )
  const takenAbsent: Array<readonly [string, ViewKey]> = []
  for (const [key, viewKey] of keys) {
    const document = known.get(key)
    if (document === undefined) {
      if (!onWhollyHere.has(key)) return undefined
      takenAbsent.push([key, viewKey])
    }
    if (document?.row !== undefined) rows.push(document.row)
    stamps.push({ view: viewKey.view, partition: viewKey.partition, id: viewKey.id, stamp: document?.stamp ?? null })
  }
  const changes = foldDocs(projections, facts, rows)
  const upserts = literal.json(changes.upserts)
  if (positionsRead) return undefined
  return {
    text: callText(schema, "runledger_append_known", [
      ...streamChecks(schema, entries),
      lockNames(schema, keys.keys()),
      literal.json(stamps),
      newFactsLiteral(entries),
      upserts,
      literal.json(changes.deletions),
      ...notify
    ]),
    changes,
    keys: [...keys.keys()],
    takenAbsent
  }
}
