import { readFileSync } from "node:fs"
import { openApiDocument } from "@runledger/adapter-http"
import { expect, test } from "vitest"

test("docs/assets/openapi.json is this release's document (regenerate it with npm run openapi)", () => {
  const committed = readFileSync(new URL("../../../docs/assets/openapi.json", import.meta.url), "utf8")
  expect(JSON.parse(committed)).toEqual(JSON.parse(JSON.stringify(openApiDocument())))
})
