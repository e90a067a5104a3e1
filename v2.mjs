import { readFileSync } from "node:fs"
import { Validator } from "@seriousme/openapi-schema-validator"

const doc = JSON.parse(readFileSync("/tmp/doc.json", "utf8"))
const r = await new Validator().validate(doc)
console.log(r)
