import type { StreamAppend } from "@runledger/core"
import { literal } from "./sqlLiterals.js"
import type { Wakeups } from "./Wakeups.js"

/** An append's arguments to the append functions, as literals (`appendFunctions.ts` names them). */
export interface AppendArguments {
  /** `stream_locks`, `stream_names`, `expected_versions`: what `runledger_check_streams` takes. */
  readonly check: ReadonlyArray<string>
  /** `new_facts`: each fact with its stream and the index of its append, in order. */
  readonly newFacts: string
  /**
   * `channel`, `payloads`: the functions' NOTIFY, given no payloads. An append's notifications are sent after its
   * commit (`Wakeups.publish`, ADR 0404): a NOTIFY in the transaction holds PostgreSQL's notify lock through the
   * commit's flush, so no two appending transactions would commit together.
   */
  readonly notify: ReadonlyArray<string>
  /** How many facts the append holds. */
  readonly factCount: number
}

/** The advisory lock names of keys (streams, view documents) in a schema, as a `text[]` literal. */
export const lockNames = (schema: string, keys: Iterable<string>): string =>
  literal.texts([...keys].map((key) => JSON.stringify([schema, key])))

/**
 * The arguments of an append. An expected version that is not a safe integer is no stream's version: it goes as -1,
 * which the check refuses with the stream's version.
 */
export const appendArguments = (
  schema: string,
  wakeups: Wakeups,
  appends: ReadonlyArray<StreamAppend>
): AppendArguments => {
  const streams = appends.map((entry) => entry.stream)
  return {
    check: [
      lockNames(schema, new Set(streams)),
      literal.texts(streams),
      literal.integers(
        appends.map(({ expected }) => (expected === "any" ? null : Number.isSafeInteger(expected) ? expected : -1)),
        "int"
      )
    ],
    newFacts: literal.json(
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
    ),
    notify: [literal.text(wakeups.channel), "ARRAY[]::text[]"],
    factCount: appends.reduce((count, { facts }) => count + facts.length, 0)
  }
}
