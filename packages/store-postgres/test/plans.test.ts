import type { Statement } from "@effect/sql/Statement"
import * as PgClient from "@effect/sql-pg/PgClient"
import { type GlobalRead, streamOwner, type ViewListing } from "@runledger/core"
import { layer } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { streamOwnerSql } from "../src/factIndexes.js"
import { listStatement } from "../src/PostgresViews.js"
import { decodePosition } from "../src/position.js"
import { readAllStatement } from "../src/readAll.js"
import { makeTables } from "../src/Tables.js"

/** A node of an `EXPLAIN (FORMAT JSON)` plan; the blocks with `ANALYZE, BUFFERS`, its children's included. */
interface PlanNode {
  readonly "Node Type": string
  readonly "Index Name"?: string
  readonly "Shared Hit Blocks"?: number
  readonly "Shared Read Blocks"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}

/** Every node of a plan, the root first. */
const nodesOf = (node: PlanNode): ReadonlyArray<PlanNode> => [node, ...(node.Plans ?? []).flatMap(nodesOf)]

/**
 * ADR 0012 and 0013: the pages of the global order under an owner or a chain, and the pages of a view's partition,
 * walk their index in order whether or not PostgreSQL has statistics of the tables: never a bitmap of the owner's
 * facts or of the partition, never a sort.
 */
postgresSuite("plans of pages, with and without statistics", "alongside", ({ url, schema }) => {
  const runtime = ManagedRuntime.make(
    Layer.merge(layer({ url, schema }), PgClient.layer({ url: Redacted.make(url), maxConnections: 2 }))
  )
  afterAll(() => runtime.dispose())
  const run = <A, E>(effect: Effect.Effect<A, E, PgClient.PgClient>) =>
    runtime.runPromise(Effect.flatMap(PgClient.PgClient, () => effect))
  const pgClient = PgClient.PgClient

  beforeAll(
    () =>
      run(
        Effect.gen(function* () {
          const sql = yield* pgClient
          const { facts, views } = makeTables(sql, schema)
          const insertRuns = (playbook: string, runs: number) =>
            sql`INSERT INTO ${facts} (id, type, stream, position, data, metadata)
            SELECT ${playbook} || '-' || run || '-' || step, CASE WHEN step = 1 THEN 'run_started' ELSE 'step' END,
              'playbook/plans/' || ${playbook} || '/runs/' || run, step, '{}',
              jsonb_build_object('correlation_id', ${playbook} || '-' || run, 'at', now())
            FROM generate_series(1, ${runs}) AS run, generate_series(1, 10) AS step`
          yield* insertRuns("small", 100)
          yield* insertRuns("large", 3_000)
          const insertDocs = (partition: string, count: number) =>
            sql`INSERT INTO ${views} (view, partition, id, sort, data)
            SELECT 'runs', ${partition}, ${partition} || '-' || doc, lpad(doc::text, 10, '0'), '{}'
            FROM generate_series(1, ${count}) AS doc`
          yield* insertDocs("plans/small", 500)
          yield* insertDocs("plans/large", 30_000)
        })
      ),
    60_000
  )

  /** The plan of a statement as PostgreSQL would run it now, or as it ran it (`ANALYZE, BUFFERS`). */
  const explain = (statement: Statement<unknown>, options: string) =>
    Effect.gen(function* () {
      const sql = yield* pgClient
      const [text, params] = statement.compile()
      const [row] = yield* sql.unsafe<{ "QUERY PLAN": ReadonlyArray<{ Plan: PlanNode }> }>(
        `EXPLAIN (${options}FORMAT JSON) ${text}`,
        params
      )
      return row["QUERY PLAN"][0].Plan
    })
  const planOf = (statement: Statement<unknown>) => Effect.map(explain(statement, ""), nodesOf)

  /** The blocks a statement read when PostgreSQL ran it. */
  const blocksOf = (statement: Statement<unknown>) =>
    Effect.map(
      explain(statement, "ANALYZE, BUFFERS, "),
      (plan) => (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0)
    )

  /** Checks that a plan walks `index` in order (an index scan, no bitmap, no sort). */
  const walks = (nodes: ReadonlyArray<PlanNode>, index: string) => {
    const types = nodes.map((node) => node["Node Type"])
    expect(types).not.toContain("Sort")
    expect(types).not.toContain("Incremental Sort")
    expect(types).not.toContain("Bitmap Heap Scan")
    expect(nodes.filter((node) => node["Node Type"].startsWith("Index")).map((node) => node["Index Name"])).toEqual([
      index
    ])
  }

  const readPlan = (read: GlobalRead) =>
    Effect.gen(function* () {
      const sql = yield* pgClient
      const from = read.from === undefined ? undefined : yield* decodePosition(read.from)
      return yield* planOf(readAllStatement(sql, makeTables(sql, schema), read, from))
    })
  const listPlan = (partition: string, listing: ViewListing) =>
    Effect.flatMap(pgClient, (sql) => planOf(listStatement(sql, makeTables(sql, schema), "runs", partition, listing)))

  const checkPlans = Effect.gen(function* () {
    for (const playbook of ["small", "large"]) {
      const streamPrefix = `playbook/plans/${playbook}/`
      for (const direction of ["forward", "backward"] as const) {
        for (const from of [undefined, "5000:300"]) {
          const at = from === undefined ? {} : { from }
          walks(
            yield* readPlan({ direction, limit: 51, ...at, filter: { streamPrefix } }),
            "runledger_facts_owner_order"
          )
          walks(
            yield* readPlan({ direction, limit: 51, ...at, filter: { streamPrefix, types: ["run_started"] } }),
            "runledger_facts_owner_order"
          )
          walks(
            yield* readPlan({ direction, limit: 51, ...at, filter: { streamPrefix: `${streamPrefix}runs/1` } }),
            "runledger_facts_owner_order"
          )
          walks(
            yield* readPlan({ direction, limit: 51, ...at, filter: { streamPrefix, correlationId: `${playbook}-7` } }),
            "runledger_facts_correlation_order"
          )
        }
      }
      for (const direction of ["ascending", "descending"] as const)
        for (const after of [undefined, { sort: "0000000250", id: `plans/${playbook}-250` }])
          walks(
            yield* listPlan(`plans/${playbook}`, { direction, limit: 51, ...(after === undefined ? {} : { after }) }),
            "runledger_views_partition_order"
          )
    }
  })

  it("walks the owner's, the chain's or the partition's index in order before the tables are analyzed", () =>
    run(checkPlans))

  it("walks them in order once the tables are analyzed", () =>
    run(
      Effect.gen(function* () {
        const sql = yield* pgClient
        const { facts, views } = makeTables(sql, schema)
        yield* sql`ANALYZE ${facts}`
        yield* sql`ANALYZE ${views}`
        yield* checkPlans
      })
    ))

  it("stops a walk at the end of its owner or its partition, where another's facts or documents follow", () =>
    run(
      Effect.gen(function* () {
        const sql = yield* pgClient
        const tables = makeTables(sql, schema)
        const [fifth] = yield* sql<{ tx: string; global_position: string }>`SELECT tx::text, global_position::text
          FROM ${tables.facts} WHERE stream LIKE 'playbook/plans/small/%' ORDER BY tx, global_position OFFSET 4 LIMIT 1`
        const read: GlobalRead = {
          direction: "backward",
          limit: 1_000,
          from: `${fifth.tx}:${fifth.global_position}`,
          filter: { streamPrefix: "playbook/plans/small/" }
        }
        const from = yield* decodePosition(read.from!)
        expect(yield* blocksOf(readAllStatement(sql, tables, read, from))).toBeLessThan(30)
        const listing: ViewListing = {
          direction: "descending",
          limit: 1_000,
          after: { sort: "0000000005", id: "plans/small-5" }
        }
        expect(yield* blocksOf(listStatement(sql, tables, "runs", "plans/small", listing))).toBeLessThan(30)
      })
    ))

  it("computes the owner of a stream in SQL as streamOwner does", () =>
    run(
      Effect.gen(function* () {
        const sql = yield* pgClient
        const streams = [
          "playbook/acme/invoices/runs/1",
          "playbook/acme/invoices/",
          "playbook/acme/invoices",
          "playbook//x/y",
          "playbook/",
          "playbooks/acme/x",
          "org/acme/comments/1",
          "org/acme/",
          "org/acme",
          "/a/b",
          "conformance/0190/x",
          "a_b/c%d/e",
          "plain"
        ]
        const rows = yield* sql<{ stream: string; owner: string | null }>`SELECT stream,
          ${sql.literal(streamOwnerSql)} AS owner FROM unnest(${streams}::text[]) AS given(stream)`
        expect(rows.map((row) => [row.stream, row.owner])).toEqual(
          streams.map((stream) => [stream, streamOwner(stream) ?? null])
        )
      })
    ))
})
