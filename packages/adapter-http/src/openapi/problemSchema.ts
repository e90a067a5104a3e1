import { schemaBase } from "./schemaBase.js"

/** The JSON Schema of an RFC 9457 problem document as the runtime answers it (HTTP "Responses and errors"). */
export const problemSchema = {
  $id: `${schemaBase}problem.json`,
  type: "object",
  required: ["type", "title", "status", "detail", "reason"],
  properties: {
    type: { type: "string", format: "uri", description: "The URI of the kind of problem." },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string", description: "What went wrong, in words." },
    reason: { type: "string" },
    kind: { type: "string" },
    because: { type: "string" },
    instance: { type: "string", description: "The incident reference of a 500, as in the x-request-id header." },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["pointer", "detail"],
        properties: { pointer: { type: "string" }, detail: { type: "string" } }
      }
    }
  }
}
