import { Effect, Layer, Context } from "effect"
import * as PgClient from "@effect/sql-pg/PgClient"
import { postgresBaseline } from "../ledger/baseline.ts"
import { clientLayer } from "../ledger/postgresStore.ts"
import { makeWorkload } from "../ledger/workload.ts"
const w = makeWorkload("single", 100, 2, 1)
const b = makeWorkload("batch", 100, 1, 10)
await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
  const sql = Context.get(yield* Layer.build(clientLayer("postgres://postgres@127.0.0.1:5432/test")), PgClient.PgClient)
  yield* sql`DROP SCHEMA IF EXISTS dbg CASCADE`
  yield* sql`CREATE SCHEMA dbg`
  const c = yield* postgresBaseline(sql, "dbg")
  yield* c.append(w, 1)
  yield* c.append(b, 1)
  console.log(yield* c.readAll(50), w.facts + b.facts)
  console.log(yield* sql`select count(*), max(global_position) from dbg.baseline_facts`)
})))
