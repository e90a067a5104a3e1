import { type NewFact, uuidv7 } from "@runledger/core"

/** A new fact of a type, for the Postgres tests. */
export const newFact = (type: string, data: unknown = {}): NewFact => ({
  id: uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10))),
  type,
  data,
  metadata: { correlation_id: null, causation_id: null, at: new Date().toISOString(), by: "store-postgres-test" }
})

/** A prefix of streams no other test writes. */
export const testPrefix = (name: string): string =>
  `${name}/${uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10)))}/`
