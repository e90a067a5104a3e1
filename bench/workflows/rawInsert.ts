import { Effect } from "effect"
import { openPgPool } from "../shared/pgPool.js"

/** The floor: single-row autocommit INSERTs (one durable commit each) through the driver the store uses. */
export interface RawInsert {
  /** Inserts `steps` rows one after the other, each its own statement; the time each came back. */
  readonly run: (steps: number) => Promise<ReadonlyArray<number>>
  readonly close: () => Promise<void>
}

/** The schema of the floor's table, inside the benchmark's database. */
const schema = "raw_floor"

let chains = 0

/** Opens a pool of `maxConnections` on `url` and creates the floor's table: a step's value as `jsonb`. */
export const openRawInsert = async (url: string, maxConnections: number): Promise<RawInsert> => {
  const { sql, close } = await openPgPool(url, maxConnections)
  await Effect.runPromise(sql`CREATE SCHEMA IF NOT EXISTS ${sql(schema)}`)
  await Effect.runPromise(
    sql`CREATE TABLE IF NOT EXISTS ${sql(schema)}.steps (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, chain text NOT NULL, step integer NOT NULL, data jsonb NOT NULL
    )`
  )
  return {
    run: async (steps) => {
      const chain = `chain-${++chains}`
      const ends = [performance.now()]
      for (let step = 0; step < steps; step++) {
        await Effect.runPromise(
          sql`INSERT INTO ${sql(schema)}.steps (chain, step, data) VALUES (${chain}, ${step}, ${JSON.stringify({ n: step + 1 })})`
        )
        ends.push(performance.now())
      }
      return ends
    },
    close
  }
}
