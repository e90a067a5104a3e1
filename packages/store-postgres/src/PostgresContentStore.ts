import type { PgClient } from "@effect/sql-pg/PgClient"
import { ContentStore } from "@runledger/core"
import { Effect, Option } from "effect"
import type { Tables } from "./Tables.js"
import { unavailable } from "./unavailable.js"

/** The most characters one row of the content table holds: 1 MiB of text at most, since a character is 1–4 bytes. */
const chunkChars = 262_144

/**
 * The content store on PostgreSQL: each text in rows of at most 1 MiB, keyed by owner, digest and chunk number,
 * written in one statement that leaves a text already kept as it is.
 */
export const makeContentStore = (sql: PgClient, tables: Tables): ContentStore["Type"] =>
  ContentStore.of({
    keep: ({ owner, sha256, text }) => {
      const chunks: Array<string> = []
      for (let at = 0; at === 0 || at < text.length; at += chunkChars) chunks.push(text.slice(at, at + chunkChars))
      const rows = chunks.map((piece, chunk) => ({ owner, sha256, chunk, text: piece }))
      return sql`INSERT INTO ${tables.content} ${sql.insert(rows)} ON CONFLICT DO NOTHING`.pipe(
        Effect.asVoid,
        unavailable("keeping content")
      )
    },
    read: (owner, sha256) =>
      sql<{ text: string }>`SELECT text FROM ${tables.content}
        WHERE owner = ${owner} AND sha256 = ${sha256} ORDER BY chunk`.pipe(
        Effect.map((rows) => (rows.length === 0 ? Option.none() : Option.some(rows.map((row) => row.text).join("")))),
        unavailable("reading content")
      )
  })
