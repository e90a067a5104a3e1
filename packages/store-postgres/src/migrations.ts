import * as Migrator from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import { LockNamespace, lockKeys } from "./advisoryLocks.js"
import { appendFunctions, knownDocumentFunctions } from "./appendFunctions.js"
import { streamOwnerSql } from "./factIndexes.js"
import type { Tables } from "./Tables.js"
import { partitionKeySql } from "./viewIndexes.js"

/**
 * The store's migrations, in order. Text columns that are compared or sorted use `COLLATE "C"` so PostgreSQL
 * orders them as JavaScript compares strings; `tx` is the appending transaction's id, the first half of the
 * global order. The second migration creates the append's server-side functions (`appendFunctions.ts`). The fourth
 * indexes the global order by the owner of the stream (ADR 0012), the fifth replaces the views' index on
 * `(view, partition, sort, id)` by one on `(partition key, sort, id)` (ADR 0013); on a database that already holds
 * facts and documents they build the indexes over them, holding appends back while they do (about 10 s a million
 * facts). The sixth reads documents as `json` with their rows' stamps and adds the one-statement append of the
 * documents an instance knows (ADRs 0408, 0409).
 */
const migrations = (sql: PgClient, tables: Tables) =>
  Migrator.fromRecord({
    "1_ledger": Effect.gen(function* () {
      yield* sql`CREATE TABLE ${tables.facts} (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
        id text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        stream text COLLATE "C" NOT NULL,
        position integer NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        CONSTRAINT runledger_facts_id_key UNIQUE (id),
        CONSTRAINT runledger_facts_stream_position_key UNIQUE (stream, position)
      )`
      yield* sql`CREATE INDEX runledger_facts_order ON ${tables.facts} (tx, global_position)`
      yield* sql`CREATE INDEX runledger_facts_type_order ON ${tables.facts} (type, tx, global_position)`
      yield* sql`CREATE INDEX runledger_facts_correlation_order
        ON ${tables.facts} ((metadata->>'correlation_id'), tx, global_position)`
      yield* sql`CREATE TABLE ${tables.views} (
        view text COLLATE "C" NOT NULL,
        partition text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        sort text COLLATE "C" NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (view, partition, id)
      )`
      yield* sql`CREATE INDEX runledger_views_sorted ON ${tables.views} (view, partition, sort, id)`
    }),
    "2_append_functions": Effect.forEach(appendFunctions(tables.schema), (statement) => sql.unsafe(statement), {
      discard: true
    }),
    "3_content": sql`CREATE TABLE ${tables.content} (
      owner text COLLATE "C" NOT NULL,
      sha256 text COLLATE "C" NOT NULL,
      chunk integer NOT NULL,
      text text NOT NULL,
      PRIMARY KEY (owner, sha256, chunk)
    )`,
    "4_owner_order": sql`CREATE INDEX runledger_facts_owner_order
      ON ${tables.facts} (${sql.literal(streamOwnerSql)}, tx, global_position)`,
    "5_partition_order": Effect.gen(function* () {
      yield* sql`CREATE INDEX runledger_views_partition_order
        ON ${tables.views} (${sql.literal(partitionKeySql)}, sort, id)`
      yield* sql`DROP INDEX ${sql(`${tables.schema}.runledger_views_sorted`)}`
    }),
    "6_known_documents": Effect.forEach(knownDocumentFunctions(tables.schema), (statement) => sql.unsafe(statement), {
      discard: true
    })
  })

/**
 * Brings the schema up to date. The schema and the migrator's table are created first under an advisory lock,
 * so instances starting together do not race to create them; the migrator then locks its table while it runs.
 */
export const migrate = (sql: PgClient, tables: Tables): Effect.Effect<void, SqlError | Migrator.MigrationError> =>
  Effect.gen(function* () {
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* lockKeys(sql, LockNamespace.migrations, [tables.schema])
        yield* sql`CREATE SCHEMA IF NOT EXISTS ${sql(tables.schema)}`
        yield* sql`CREATE TABLE IF NOT EXISTS ${sql(tables.migrations)} (
          migration_id integer PRIMARY KEY,
          created_at timestamp with time zone NOT NULL DEFAULT now(),
          name text NOT NULL
        )`
      })
    )
    yield* Migrator.make({})({ loader: migrations(sql, tables), table: tables.migrations })
  }).pipe(Effect.provideService(SqlClient, sql))
