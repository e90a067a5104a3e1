import { Effect, Layer, Context } from "effect"
import { Ledger } from "@runledger/core"
import * as PgClient from "@effect/sql-pg/PgClient"
import { layer } from "@runledger/store-postgres"
import { clientLayer } from "../ledger/postgresStore.ts"
import { postgresBaseline } from "../ledger/baseline.ts"
import { makeWorkload } from "../ledger/workload.ts"
import { median } from "../ledger/measure.ts"
const url = "postgres://postgres@127.0.0.1:5432/test"
const N = 150
await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
  const sql = Context.get(yield* Layer.build(clientLayer(url)), PgClient.PgClient)
  yield* sql`DROP SCHEMA IF EXISTS trips CASCADE`
  yield* sql`DROP SCHEMA IF EXISTS trips_f CASCADE`
  yield* sql`CREATE SCHEMA trips_f`
  const ledger = Context.get(yield* Layer.build(layer({ url, schema: "trips" })), Ledger)
  const base = yield* postgresBaseline(sql, "trips_f")
  const facts = sql`${sql("trips.runledger_facts")}`
  const results: Record<string, number[]> = {}
  const variants: Record<string, (i: number, r: number) => Effect.Effect<unknown, unknown>> = {}
  const row = (s: string) => ({ id: crypto.randomUUID(), type: "t", stream: s, position: 1, data: JSON.stringify({ a: 1 }), metadata: JSON.stringify({ correlation_id: "x" }) })
  variants["A plain insert autocommit"] = (i, r) => sql`INSERT INTO trips_f.baseline_facts ${sql.insert(row(`a${r}-${i}`))}`
  variants["B insert into ledger table autocommit"] = (i, r) => sql`INSERT INTO ${facts} ${sql.insert(row(`b${r}-${i}`))}`
  variants["C tx(insert) ledger table"] = (i, r) => sql.withTransaction(sql`INSERT INTO ${facts} ${sql.insert(row(`c${r}-${i}`))}`)
  variants["D tx(lock, select, insert)"] = (i, r) => sql.withTransaction(Effect.gen(function* () {
    const s = `d${r}-${i}`
    yield* sql`SELECT pg_advisory_xact_lock(1, hashtext(${s}))`
    yield* sql`SELECT max(position) FROM ${facts} WHERE stream = ANY(${[s]}::text[])`
    yield* sql`INSERT INTO ${facts} ${sql.insert(row(s))}`
  }))
  variants["E tx(lock, select, insert, notify)"] = (i, r) => sql.withTransaction(Effect.gen(function* () {
    const s = `e${r}-${i}`
    yield* sql`SELECT pg_advisory_xact_lock(1, hashtext(${s}))`
    yield* sql`SELECT max(position) FROM ${facts} WHERE stream = ANY(${[s]}::text[])`
    yield* sql`INSERT INTO ${facts} ${sql.insert(row(s))}`
    yield* sql`SELECT pg_notify('runledger_trips', '{"origin":"x","streams":["a"]}')`
  }))
  variants["F store append"] = (i, r) => ledger.append([{ stream: `f${r}-${i}`, expected: 0, facts: [{ id: crypto.randomUUID(), type: "t", data: { a: 1 }, metadata: { correlation_id: "x", causation_id: null, at: "2026", by: "me" } }] }])
  for (let r = 0; r < 3; r++)
    for (const [name, v] of Object.entries(variants)) {
      const t = performance.now()
      for (let i = 0; i < N; i++) yield* v(i, r)
      ;(results[name] ??= []).push((performance.now() - t) / N)
    }
  for (const [name, v] of Object.entries(results)) console.log(name.padEnd(40), median(v).toFixed(2), "ms/append", v.map((x) => x.toFixed(2)).join(" "))
  yield* sql`DROP SCHEMA trips, trips_f CASCADE`
})))
