import { Ledger, type Projection, Projections, VersionConflict } from "@runledger/core"
import { PostgresLedger } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { afterAll, expect, it } from "vitest"
import { newFact, testPrefix } from "./facts.js"

/** A projection of `claimed` facts, so that those appends go through the group commit (ADR 0407). */
const claimsView = "stream_versions_claims"
const claimsProjection: Projection = {
  view: claimsView,
  types: ["claimed"],
  keys: (fact) => [{ view: claimsView, partition: "claims", id: fact.metadata.stream }],
  apply: (_current, fact, key) => ({ id: key.id, sort: "", data: { position: fact.metadata.position } })
}

postgresSuite("stream versions an instance saw", "alongside", ({ url, schema }) => {
  const instance = () =>
    ManagedRuntime.make(
      PostgresLedger.layer({ url, schema }).pipe(Layer.provide(Layer.succeed(Projections, [claimsProjection])))
    )
  const first = instance()
  const second = instance()
  afterAll(async () => {
    await first.dispose()
    await second.dispose()
  })

  const append = (stream: string, expected: number, type: string) =>
    Effect.either(
      Effect.flatMap(Ledger, (ledger) => ledger.append([{ stream, expected, facts: [newFact(type, { stream })] }]))
    )

  for (const type of ["claimed", "noted"])
    it(`refuses an append behind a version seen, and takes one at a version another instance reached (${type})`, async () => {
      const stream = `${testPrefix("versions")}s`
      expect(Either.isRight(await first.runPromise(append(stream, 0, type)))).toBe(true)
      expect(Either.isRight(await second.runPromise(append(stream, 1, type)))).toBe(true)
      expect(await first.runPromise(append(stream, 1, type))).toEqual(
        Either.left(new VersionConflict({ stream, expected: 1, actual: 2 }))
      )
      expect(await first.runPromise(append(stream, 0, type))).toEqual(
        Either.left(new VersionConflict({ stream, expected: 0, actual: 2 }))
      )
      expect(Either.isRight(await first.runPromise(append(stream, 2, type)))).toBe(true)
      expect(Either.isRight(await second.runPromise(append(stream, 3, type)))).toBe(true)
      const positions = await second.runPromise(
        Effect.flatMap(Ledger, (ledger) => ledger.readStream(stream)).pipe(
          Effect.map((facts) => facts.map((fact) => fact.metadata.position))
        )
      )
      expect(positions).toEqual([1, 2, 3, 4])
    })

  it("lets claimers of one stream that decide again on every refusal all land, in turn", async () => {
    const stream = `${testPrefix("versions")}claims`
    const claim = Effect.gen(function* () {
      const ledger = yield* Ledger
      for (let round = 0; ; round++) {
        const version = yield* ledger.streamVersion(stream)
        const outcome = yield* Effect.either(
          ledger.append([{ stream, expected: version, facts: [newFact("claimed", { stream })] }])
        )
        if (Either.isRight(outcome)) return round
        if (round > 200) return yield* Effect.die(new Error("a claimer never landed"))
      }
    })
    await first.runPromise(
      Effect.forEach(
        Array.from({ length: 8 }, () => Effect.forEach(Array.from({ length: 5 }), () => claim)),
        (claimer) => claimer,
        { concurrency: "unbounded" }
      )
    )
    const positions = await first.runPromise(
      Effect.flatMap(Ledger, (ledger) => ledger.readStream(stream)).pipe(
        Effect.map((facts) => facts.map((fact) => fact.metadata.position))
      )
    )
    expect(positions).toEqual(Array.from({ length: 40 }, (_, index) => index + 1))
  })
})
