/** The Postgres suites' harness now lives in `@runledger/store-postgres/testing`. */
export * from "../src/testing/postgresSuite.js"
