import { Effect, Layer, Context } from "effect"
import { Ledger } from "@runledger/core"
import * as PgClient from "@effect/sql-pg/PgClient"
import { layer } from "@runledger/store-postgres"
import { clientLayer } from "../ledger/postgresStore.ts"
import { makeWorkload } from "../ledger/workload.ts"
const w = makeWorkload("single", 120, 1, 1)
const c = makeWorkload("concurrent", 120, 1, 1)
import { ledgerContender } from "../ledger/ledgerContender.ts"
const url = "postgres://postgres@127.0.0.1:5432/test"
await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
  const sql = Context.get(yield* Layer.build(clientLayer(url)), PgClient.PgClient)
  yield* sql`DROP SCHEMA IF EXISTS dbgl CASCADE`
  const ledger = Context.get(yield* Layer.build(layer({ url, schema: "dbgl" })), Ledger)
  for (const a of w.appends) yield* ledger.append([a])
  yield* ledgerContender(ledger).append(c, 4)
  console.log(yield* sql`select tx::text, global_position from dbgl.runledger_facts order by global_position offset 115 limit 15`)
  let from: string | undefined
  let n = 0
  const seen: string[] = []
  while (true) {
    const page = yield* ledger.readAll({ direction: "forward", from, limit: 50 })
    seen.push(page.map((p) => p.position).join(" ").slice(0, 120) + " ... " + page.at(-1)?.position)
    n += page.length
    if (page.length < 50) break
    from = page.at(-1)!.position
  }
  console.log(n, seen)
  console.log(yield* sql`select count(*), min(tx::text), max(tx::text), pg_snapshot_xmin(pg_current_snapshot())::text as xmin from dbgl.runledger_facts`)
})))
