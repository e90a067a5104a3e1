import type { StreamAppend } from "@runledger/core"
import { literal } from "./sqlLiterals.js"
import type { Wakeups } from "./Wakeups.js"

/** The advisory lock names of keys (streams, view documents) in a schema, as a `text[]` literal. */
export const lockNames = (schema: string, keys: Iterable<string>): string =>
  literal.texts([...keys].map((key) => JSON.stringify([schema, key])))

/**
 * `stream_locks`, `stream_names`, `expected_versions`: what `runledger_check_streams` takes for an append. An
 * expected version that is not a safe integer is no stream's version: it goes as -1, which the check refuses with
 * the stream's version.
 */
export const streamChecks = (schema: string, appends: ReadonlyArray<StreamAppend>): ReadonlyArray<string> => {
  const streams = appends.map((entry) => entry.stream)
  return [
    lockNames(schema, new Set(streams)),
    literal.texts(streams),
    literal.integers(
      appends.map(({ expected }) => (expected === "any" ? null : Number.isSafeInteger(expected) ? expected : -1)),
      "int"
    )
  ]
}

/** `new_facts`: each fact of the appends with its stream and the index of its append, in order. */
export const newFactsLiteral = (appends: ReadonlyArray<StreamAppend>): string =>
  literal.json(
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

/**
 * `channel`, `payloads`: the functions' NOTIFY, given no payloads. An append's notifications are sent after its
 * commit (`Wakeups.publish`, ADR 0404): a NOTIFY in the transaction holds PostgreSQL's notify lock through the
 * commit's flush, so no two appending transactions would commit together.
 */
export const noNotifications = (wakeups: Wakeups): ReadonlyArray<string> => [
  literal.text(wakeups.channel),
  "ARRAY[]::text[]"
]
