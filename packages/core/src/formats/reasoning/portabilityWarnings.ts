import { pointerSegment } from "../document/Place.js"

/** One finding about a place of an output schema that not every provider enforces. */
export interface SchemaFinding {
  readonly pointer: string
  readonly message: string
}

/** Bounds Anthropic-family models do not enforce (function-formats.md §2.1). */
const unenforcedBounds = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties"
]

/** The formats Anthropic-family models accept. */
const anthropicFormats = ["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]

const isSchema = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isObjectSchema = (schema: Record<string, unknown>) =>
  schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object")) || "properties" in schema

/**
 * Where an output schema leaves the portable subset (function-formats.md §2.1): a root that is not an object, an
 * object not closed with `additionalProperties: false` or with a property outside `required`, a bound or `oneOf`
 * Anthropic-family models do not enforce, a format they do not accept. Each finding ends with the providers
 * concerned; the runtime checks every answer itself, so these are warnings, not issues.
 */
export const portabilityFindings = (schema: unknown): Array<SchemaFinding> => {
  const findings: Array<SchemaFinding> = []
  if (!isSchema(schema) || !isObjectSchema(schema))
    findings.push({
      pointer: "",
      message: "the answer's root is not an object, which structured outputs ask for (anthropic, openai)"
    })
  const walk = (node: unknown, pointer: string): void => {
    if (!isSchema(node)) return
    if (isObjectSchema(node)) {
      if (node.additionalProperties !== false)
        findings.push({
          pointer,
          message:
            "this object is not closed with additionalProperties: false, which strict structured outputs need (openai)"
        })
      const required = Array.isArray(node.required) ? node.required : []
      for (const key of Object.keys(isSchema(node.properties) ? node.properties : {}))
        if (!required.includes(key))
          findings.push({
            pointer: `${pointer}/properties/${pointerSegment(key)}`,
            message: "this property is not in required; list it there and make it nullable to keep it optional (openai)"
          })
    }
    for (const keyword of unenforcedBounds)
      if (keyword in node)
        findings.push({
          pointer: `${pointer}/${keyword}`,
          message: `${keyword} is not enforced by the model, only by the runtime's check of its answer (anthropic)`
        })
    if ("oneOf" in node) findings.push({ pointer: `${pointer}/oneOf`, message: "oneOf is sent as anyOf (anthropic)" })
    if (typeof node.format === "string" && !anthropicFormats.includes(node.format))
      findings.push({ pointer: `${pointer}/format`, message: `the format ${node.format} is not accepted (anthropic)` })
    for (const keyword of ["properties", "$defs", "definitions"])
      if (isSchema(node[keyword]))
        for (const [key, child] of Object.entries(node[keyword] as Record<string, unknown>))
          walk(child, `${pointer}/${keyword}/${pointerSegment(key)}`)
    for (const keyword of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
      const members = node[keyword]
      if (Array.isArray(members))
        for (const [index, child] of members.entries()) walk(child, `${pointer}/${keyword}/${index}`)
    }
    if (Array.isArray(node.items))
      for (const [index, child] of node.items.entries()) walk(child, `${pointer}/items/${index}`)
    else walk(node.items, `${pointer}/items`)
    if (isSchema(node.additionalProperties)) walk(node.additionalProperties, `${pointer}/additionalProperties`)
  }
  walk(schema, "")
  return findings
}
