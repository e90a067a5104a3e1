import * as PgClient from "@effect/sql-pg/PgClient"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, ManagedRuntime, Redacted } from "effect"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { viewDocKey } from "../src/projectFacts.js"
import { literal } from "../src/sqlLiterals.js"

/** Strings of every kind of code unit: quotes, backslashes, dollars, controls, lone surrogates, the quotes' tag. */
const anyText = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.constantFrom("$", "r", "u", "n", "l", "e", "d", "g", "'", "\\", '"', "\n", "\ud800", "é") }),
  fc.tuple(fc.string(), fc.string()).map(([before, after]) => `${before}$runledger$${after}`),
  fc.string().map((text) => `${text}$runledger`)
)

describe("viewDocKey", () => {
  it("is the document's view, partition and id as JSON.stringify writes them, whatever they hold", () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, (view, partition, id) => {
        expect(viewDocKey({ view, partition, id })).toBe(JSON.stringify([view, partition, id]))
      }),
      { numRuns: 2_000 }
    )
  })
})

postgresSuite("text literals", "alongside", ({ url }) => {
  const runtime = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
  afterAll(() => runtime.dispose())
  const readBack = (texts: ReadonlyArray<string>) =>
    runtime.runPromise(
      Effect.flatMap(PgClient.PgClient, (sql) =>
        sql.unsafe<{ texts: ReadonlyArray<string> }>(`SELECT ${literal.texts(texts)} AS texts`)
      )
    )

  it("reads back every text as written (without NUL, which PostgreSQL keeps in no text)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          anyText.map((text) => text.replaceAll("\u0000", "")),
          { maxLength: 8 }
        ),
        async (texts) => {
          // A lone surrogate has no UTF-8 form: the driver sends U+FFFD for it, as it does for a parameter.
          const sent = texts.map((text) => Buffer.from(text, "utf8").toString("utf8"))
          const [row] = await readBack(texts)
          expect(row!.texts).toEqual(sent)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("reads JSON back as the value it was written from", async () => {
    await fc.assert(
      // jsonb keeps no NUL and no lone surrogate, whichever way a text reaches it.
      fc.asyncProperty(
        fc.jsonValue().filter((value) => !/\\u(0000|d[89a-f])/i.test(JSON.stringify(value))),
        async (value) => {
          const [row] = await runtime.runPromise(
            Effect.flatMap(PgClient.PgClient, (sql) =>
              sql.unsafe<{ value: string }>(`SELECT (${literal.json(value)})::text AS value`)
            )
          )
          expect(JSON.parse(row!.value)).toEqual(JSON.parse(JSON.stringify(value)))
        }
      ),
      { numRuns: 200 }
    )
  })
})
