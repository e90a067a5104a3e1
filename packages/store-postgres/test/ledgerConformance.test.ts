import { ledgerConformance } from "@runledger/core/testing"
import { PostgresLedger } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"

postgresSuite("ledger conformance", "alongside", ({ url, schema }) => {
  ledgerConformance("postgres", PostgresLedger.layer({ url, schema }))
})
