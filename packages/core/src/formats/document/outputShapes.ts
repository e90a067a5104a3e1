/** The output shapes a document may name (decision W3). */
export type OutputShape = "table" | "series" | "asset"

/** Every output shape, for checks and words. */
export const outputShapes: ReadonlyArray<OutputShape> = ["table", "series", "asset"]

const dateTime = { type: "string", format: "date-time" }
const point = {
  type: "object",
  required: ["at", "value"],
  additionalProperties: false,
  properties: { at: dateTime, value: { type: "number" } }
}

/**
 * The JSON Schema of each output shape: the minimal schemas of function-formats.md §8 [PROPOSAL], until pages
 * and shapes are designed (decision F10).
 */
export const outputShapeSchemas: Readonly<Record<OutputShape, object>> = {
  series: {
    type: "object",
    required: ["series", "period", "observed"],
    additionalProperties: false,
    properties: {
      series: { type: "string" },
      period: { type: "string", format: "duration" },
      unit: { type: "string" },
      observed: { type: "array", items: point },
      predicted: {
        type: "array",
        items: {
          type: "object",
          required: ["at", "horizon", "value", "low", "high"],
          additionalProperties: false,
          properties: {
            at: dateTime,
            horizon: { type: "integer", minimum: 1 },
            value: { type: "number" },
            low: { type: "number" },
            high: { type: "number" }
          }
        }
      }
    }
  },
  table: {
    type: "object",
    required: ["columns", "rows"],
    additionalProperties: false,
    properties: {
      columns: {
        type: "array",
        minItems: 1,
        maxItems: 50,
        items: {
          type: "object",
          required: ["name", "type"],
          additionalProperties: false,
          properties: {
            name: { type: "string" },
            type: { enum: ["text", "number", "integer", "boolean", "date", "date-time"] },
            unit: { type: "string" }
          }
        }
      },
      rows: { type: "array", maxItems: 10_000, items: { type: "array" } }
    }
  },
  asset: {
    type: "object",
    required: ["id", "media_type", "bytes", "sha256"],
    additionalProperties: false,
    properties: {
      id: { type: "string", format: "uuid" },
      media_type: { type: "string" },
      bytes: { type: "integer", minimum: 0 },
      sha256: { type: "string", minLength: 64, maxLength: 64 },
      address: { type: "string", format: "uri" },
      address_until: dateTime,
      expires_at: dateTime
    }
  }
}
