import { ProjectionsLive } from "@runledger/core"
import { PostgresLedger } from "@runledger/store-postgres"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"

const build = (options: PostgresLedger.PostgresLedgerOptions) =>
  Effect.runPromise(
    Effect.scoped(Layer.build(PostgresLedger.layer(options).pipe(Layer.provide(ProjectionsLive)))).pipe(Effect.flip)
  )

describe("PostgresLedger.layer", () => {
  it("fails with StoreUnavailable when the server cannot be reached", async () => {
    const error = await build({ url: "postgres://postgres@127.0.0.1:1/test" })
    expect(error._tag).toBe("StoreUnavailable")
  })

  it("refuses a schema name it cannot use as an identifier, before connecting", async () => {
    const error = await build({ url: "postgres://postgres@127.0.0.1:1/test", schema: "Bad-Name" })
    expect(error._tag).toBe("ConfigError")
  })
})
