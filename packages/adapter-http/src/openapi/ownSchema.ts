import type { JsonSchema } from "../schema/jsonSchemaOf.js"
import { schemaBase } from "./schemaBase.js"

type Defs = Readonly<Record<string, JsonSchema>>

/** Whether a schema refers to a definition anywhere inside it. */
const refersTo = (value: unknown, name: string): boolean => JSON.stringify(value).includes(`"#/$defs/${name}"`)

/**
 * A schema whose root only refers to one definition, as that definition itself: `{ $ref: "#/$defs/Playbook" }`
 * becomes the Playbook schema, which stays among the definitions only where something else refers to it.
 */
const hoisted = (schema: JsonSchema, defs: Defs): { readonly root: JsonSchema; readonly defs: Defs } => {
  const { $ref, ...others } = schema
  const name = typeof $ref === "string" && $ref.startsWith("#/$defs/") ? $ref.slice(8) : undefined
  if (name === undefined || defs[name] === undefined) return { root: schema, defs }
  const root = { ...defs[name], ...others }
  const kept = Object.fromEntries(Object.entries(defs).filter(([key]) => key !== name))
  return refersTo([root, kept], name) ? { root, defs } : { root, defs: kept }
}

/**
 * A schema as a resource of its own: its `$id` under the runtime's base, and the definitions it refers to inside
 * it, so its `#/$defs/...` references resolve within it.
 */
export const ownSchema = (path: string, schema: JsonSchema, defs: Defs = {}): JsonSchema => {
  const { $schema: _dialect, $defs: own, ...rest } = schema
  const { root, defs: all } = hoisted(rest, { ...defs, ...((own ?? {}) as Defs) })
  const used = Object.fromEntries(Object.entries(all).filter(([name]) => refersTo([root, all], name)))
  return { $id: `${schemaBase}${path}.json`, ...root, ...(Object.keys(used).length > 0 ? { $defs: used } : {}) }
}
