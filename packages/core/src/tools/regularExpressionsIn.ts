/** The keywords whose value is a map of names to schemas: their keys are names, never keywords. */
const schemaMaps = new Set(["properties", "$defs", "definitions", "dependentSchemas"])

/** The keywords whose value is data, not a schema. */
const dataKeywords = new Set(["enum", "const", "default", "examples"])

/**
 * Whether a JSON Schema holds a regular expression anywhere (`pattern`, `patternProperties`): the arguments checker
 * leaves such a schema unchecked (HTTP "Reading one tool", ADR 0344), so no tool server's expression runs on a
 * caller's text in the runtime.
 */
export const regularExpressionsIn = (schema: unknown): boolean => {
  if (Array.isArray(schema)) return schema.some(regularExpressionsIn)
  if (typeof schema !== "object" || schema === null) return false
  return Object.entries(schema).some(([keyword, value]) => {
    if (keyword === "patternProperties" || (keyword === "pattern" && typeof value === "string")) return true
    if (dataKeywords.has(keyword)) return false
    if (schemaMaps.has(keyword) && typeof value === "object" && value !== null)
      return Object.values(value).some(regularExpressionsIn)
    return regularExpressionsIn(value)
  })
}
