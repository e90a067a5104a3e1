import type { ListedTool, ToolHints, ToolServerEntry } from "@runledger/core"
import { markOfMethod, withSettings } from "./marks.js"

/** One operation of an HTTP API as a tool: how it is called beside what it lists. */
export interface OpenApiOperation {
  readonly tool: ListedTool
  readonly method: string
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly queryParams: ReadonlyArray<string>
  readonly takesBody: boolean
}

type Json = Record<string, any>

const methods = ["get", "put", "post", "delete", "patch", "head"] as const

/** A local reference (`#/components/parameters/id`) read from the document; anything else as it is. */
const deref = (document: Json, value: Json): Json => {
  if (typeof value?.$ref !== "string" || !value.$ref.startsWith("#/")) return value
  const found = value.$ref
    .slice(2)
    .split("/")
    .reduce((at: any, part: string) => at?.[part.replaceAll("~1", "/").replaceAll("~0", "~")], document)
  return found === undefined ? value : deref(document, found)
}

/** A schema with its references to the document's components moved under `$defs`, and the names it refers to. */
const moveRefs = (schema: unknown, refs: Set<string>): unknown => {
  if (Array.isArray(schema)) return schema.map((item) => moveRefs(item, refs))
  if (schema === null || typeof schema !== "object") return schema
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/schemas/")) {
        const name = value.slice("#/components/schemas/".length)
        refs.add(name)
        return [key, `#/$defs/${name}`]
      }
      return [key, moveRefs(value, refs)]
    })
  )
}

/** The component schemas a set of names refers to, and those they refer to in turn, under their names. */
const definitionsOf = (document: Json, refs: Set<string>): Record<string, unknown> => {
  const defs: Record<string, unknown> = {}
  const pending = [...refs]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (name in defs) continue
    const more = new Set<string>()
    defs[name] = moveRefs(document.components?.schemas?.[name] ?? {}, more)
    for (const next of more) if (!(next in defs)) pending.push(next)
  }
  return defs
}

/** The hints an HTTP method gives: readOnly for GET and HEAD, destructive for DELETE, idempotent but for POST and PATCH. */
const hintsOfMethod = (method: string): ToolHints => ({
  ...(method === "GET" || method === "HEAD" ? { readOnlyHint: true } : {}),
  ...(method === "DELETE" ? { destructiveHint: true } : {}),
  ...(["GET", "HEAD", "PUT", "DELETE"].includes(method) ? { idempotentHint: true } : {}),
  openWorldHint: true
})

/** A tool name for an operation without an `operationId`: its method and path, in the characters a name takes. */
const nameOf = (method: string, path: string): string =>
  `${method}_${path
    .replace(/[{}]/g, "")
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")}`.slice(0, 64)

/**
 * The tools of an OpenAPI 3 document: one per operation, taking one object with each path and query parameter by
 * its name and `body` for a JSON body, the component schemas it refers to under `$defs`.
 */
export const openApiOperations = (entry: ToolServerEntry, document: Json): ReadonlyArray<OpenApiOperation> =>
  Object.entries<Json>(document.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((lower) => {
      const operation: Json | undefined = item?.[lower]
      if (operation === undefined) return []
      const method = lower.toUpperCase()
      const refs = new Set<string>()
      const properties: Record<string, unknown> = {}
      const required: Array<string> = []
      const pathParams: Array<string> = []
      const queryParams: Array<string> = []
      for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const parameter = deref(document, raw)
        if (parameter.in !== "path" && parameter.in !== "query") continue
        ;(parameter.in === "path" ? pathParams : queryParams).push(parameter.name)
        properties[parameter.name] = moveRefs(
          { ...(parameter.schema ?? {}), ...(parameter.description ? { description: parameter.description } : {}) },
          refs
        )
        if (parameter.required === true || parameter.in === "path") required.push(parameter.name)
      }
      const body = deref(document, operation.requestBody ?? {})
      const bodySchema = body.content?.["application/json"]?.schema
      if (bodySchema !== undefined) {
        properties.body = moveRefs(bodySchema, refs)
        if (body.required === true) required.push("body")
      }
      const defs = definitionsOf(document, refs)
      const name: string = operation.operationId ?? nameOf(lower, path)
      const marking = withSettings(entry, name, markOfMethod(method))
      const description = [operation.summary, operation.description].filter((part) => typeof part === "string")
      const tool: ListedTool = {
        name,
        description: description.join("\n\n"),
        inputSchema: {
          type: "object",
          properties,
          ...(required.length === 0 ? {} : { required: [...new Set(required)] }),
          additionalProperties: false,
          ...(Object.keys(defs).length === 0 ? {} : { $defs: defs })
        },
        annotations: hintsOfMethod(method),
        mark: marking.mark,
        markedBy: marking.markedBy
      }
      return [{ tool, method, path, pathParams, queryParams, takesBody: bodySchema !== undefined }]
    })
  )
