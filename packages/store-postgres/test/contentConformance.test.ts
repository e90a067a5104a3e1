import { ProjectionsLive } from "@runledger/core"
import { contentConformance } from "@runledger/core/testing"
import { PostgresLedger } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Layer } from "effect"

postgresSuite("content conformance", "alongside", ({ url, schema }) => {
  contentConformance("postgres", PostgresLedger.layer({ url, schema }).pipe(Layer.provide(ProjectionsLive)))
})
