/** @runledger/core/testing: the ports' conformance suites, run by every store. */
export * from "./conformanceProjection.js"
export * from "./contentConformance.js"
export * from "./ledgerConformance.js"
