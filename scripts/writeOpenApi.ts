/** Writes the OpenAPI document of this release to docs/assets/openapi.json, where client generators find it. */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { openApiDocument } from "@runledger/adapter-http"

const target = fileURLToPath(new URL("../docs/assets/openapi.json", import.meta.url))
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`)
console.log(`Wrote ${target}`)
