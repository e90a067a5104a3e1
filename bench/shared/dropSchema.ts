import { Effect } from "effect"
import { onDatabase } from "./onDatabase.js"

/** Drops a schema a benchmark made, with all it holds; a schema that is not there, or a failure, is ignored. */
export const dropSchema = (url: string, schema: string): Promise<void> =>
  onDatabase(url, (sql) => Effect.ignore(sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`))
