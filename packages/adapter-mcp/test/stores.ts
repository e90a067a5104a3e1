import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { describe } from "vitest"
import type { StoreLayer } from "./fixture.js"

/**
 * Declares an MCP suite once per store, `body` given a maker of its store layer: on memory always, and on
 * PostgreSQL (a schema of its own) when `DATABASE_URL` is set — skipped with a line saying so otherwise.
 */
export const onEveryStore = (name: string, body: (store: () => StoreLayer) => void): void => {
  describe(`${name} (memory store)`, () => body(() => MemoryStore.layer))
  postgresSuite(name, "alongside", (database) =>
    body(() => PostgresStore.layer({ url: database.url, schema: database.schema }))
  )
}
