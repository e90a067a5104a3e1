import type { PgClient } from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import type { Contender } from "./contender.js"
import { partition } from "./workload.js"

/**
 * The Postgres floor: the same rows as the ledger's (its columns and types: id, type, stream, position, data and
 * metadata as jsonb) by plain INSERTs into a table with only an identity primary key: one statement per append
 * (multi-row for a batch), each its own autocommit transaction, through the same driver. Reads select every row
 * in primary-key order, page by page (keyset), the same columns.
 */
export const postgresBaseline = (sql: PgClient, schema: string) =>
  Effect.gen(function* () {
    const table = sql`${sql(schema)}.baseline_facts`
    yield* sql`CREATE TABLE ${table} (
      global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id text COLLATE "C" NOT NULL,
      type text COLLATE "C" NOT NULL,
      stream text COLLATE "C" NOT NULL,
      position integer NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL
    )`
    const contender: Contender = {
      append: (workload, appenders) =>
        Effect.forEach(
          partition(workload, appenders),
          (appends) =>
            Effect.forEach(
              appends,
              ({ stream, expected, facts }) => {
                const first = typeof expected === "number" ? expected : 0
                const rows = facts.map((fact, index) => ({
                  id: fact.id,
                  stream,
                  position: first + index + 1,
                  type: fact.type,
                  data: JSON.stringify(fact.data),
                  metadata: JSON.stringify(fact.metadata)
                }))
                return sql`INSERT INTO ${table} ${sql.insert(rows)}`
              },
              { discard: true }
            ),
          { concurrency: appenders, discard: true }
        ),
      // global_position is selected as is (a bigint arrives as a string): a `::text` alias of the same name
      // would make ORDER BY sort the text.
      readAll: (pageSize) =>
        Effect.gen(function* () {
          let from = 0
          let count = 0
          while (true) {
            const page = yield* sql<{ global_position: string }>`
              SELECT id, type, stream, position, global_position, data, metadata FROM ${table}
              WHERE global_position > ${from} ORDER BY global_position LIMIT ${pageSize}`
            count += page.length
            if (page.length < pageSize) return count
            from = Number(page[page.length - 1]!.global_position)
          }
        })
    }
    return contender
  })
