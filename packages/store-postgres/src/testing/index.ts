/** @runledger/store-postgres/testing: run a test suite against PostgreSQL on a schema of its own. */

export * from "./factCount.js"
export * from "./postgresSuite.js"
