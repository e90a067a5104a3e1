import { Effect, Layer } from "effect"
import type { StoreLayer } from "../ledger/postgresStore.js"
import { openPgPool } from "../shared/pgPool.js"
import type { WritesPayload } from "./stepWrites.js"

/**
 * The floor under the Postgres targets: what a call step must write — its facts and the view documents they change,
 * in one transaction, as architecture.md's ledger records them — sent as plain SQL into the store's own tables (made
 * by the store's own migrations, with their indexes), without the store's locks, version checks or JavaScript.
 */
export interface StepWriteFloor {
  /** Sends each payload as one autocommit statement, one after the other; the time each came back. */
  readonly run: (payloads: ReadonlyArray<WritesPayload>) => Promise<ReadonlyArray<number>>
  readonly close: () => Promise<void>
}

/** The schema of the floor's tables, inside the benchmark's database. */
const schema = "step_floor"

/** One statement: insert the facts, upsert the documents (both given as JSON arrays), commit. */
const statement = `WITH facts AS (
  INSERT INTO ${schema}.runledger_facts (id, type, stream, position, data, metadata)
  SELECT fact->>'id', fact->>'type', fact->>'stream', (fact->>'position')::int, fact->'data', fact->'metadata'
  FROM jsonb_array_elements($1::jsonb) AS fact
), documents AS (
  INSERT INTO ${schema}.runledger_views (view, partition, id, sort, data)
  SELECT document->>'view', document->>'partition', document->>'id', document->>'sort', document->'data'
  FROM jsonb_array_elements($2::jsonb) AS document
  ON CONFLICT (view, partition, id) DO UPDATE SET sort = excluded.sort, data = excluded.data
)
SELECT 1`

/** Creates the store's tables in the floor's schema (by building the store once) and opens a pool on `url`. */
export const openStepWriteFloor = async (
  url: string,
  store: StoreLayer,
  maxConnections: number
): Promise<StepWriteFloor> => {
  await Effect.runPromise(Effect.scoped(Layer.build(store({ url, schema, maxConnections: 1 }))))
  const { sql, close } = await openPgPool(url, maxConnections)
  return {
    run: async (payloads) => {
      const ends = [performance.now()]
      for (const payload of payloads) {
        await Effect.runPromise(sql.unsafe(statement, [payload.facts, payload.documents]))
        ends.push(performance.now())
      }
      return ends
    },
    close
  }
}
