import { Effect, Layer, Context } from "effect"
import * as PgClient from "@effect/sql-pg/PgClient"
import { clientLayer } from "../ledger/postgresStore.ts"
await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
  const sql = Context.get(yield* Layer.build(clientLayer("postgres://postgres@127.0.0.1:5432/test")), PgClient.PgClient)
  const t = sql`${sql("dbg")}.baseline_facts`
  let from = 0
  for (let i = 0; i < 6; i++) {
    const page = yield* sql<any>`SELECT id, global_position::text AS global_position FROM ${t} WHERE global_position > ${from} ORDER BY global_position LIMIT ${50}`
    console.log(from, page.length, page[0]?.global_position, page.at(-1)?.global_position)
    from = Number(page.at(-1).global_position)
  }
})))
