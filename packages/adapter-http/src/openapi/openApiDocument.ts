import {
  catalog as coreCatalog,
  guides as coreGuides,
  defaultSettings,
  type Guide,
  type Operation,
  OrgId,
  PlaybookId,
  problemTitle,
  type RuntimeSettings
} from "@runledger/core"
import { parameterNames, routeTemplate, takesQuery } from "../routes/routeTemplate.js"
import { inputFields } from "../schema/inputFields.js"
import { type JsonSchema, jsonSchemaOf } from "../schema/jsonSchemaOf.js"
import { ownSchema } from "./ownSchema.js"
import { problemSchema } from "./problemSchema.js"
import { problemStatuses } from "./problemStatuses.js"

/** What the document is built from beside the runtime's settings. */
export interface OpenApiSources {
  readonly catalog?: ReadonlyArray<Operation>
  readonly guides?: ReadonlyArray<Guide>
}

const problemContent = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } }

/** The schema of a path parameter the route's prefix names rather than the operation's input. */
const prefixParameters: Readonly<Record<string, JsonSchema>> = {
  org: jsonSchemaOf(OrgId),
  playbook: jsonSchemaOf(PlaybookId)
}

/** One operation as an OpenAPI operation object. */
const operationObject = (operation: Operation) => {
  const fields = inputFields(operation)
  const inPath = parameterNames(routeTemplate(operation))
  const own = new Set(parameterNames(operation.route.path))
  const rest = Object.keys(fields.properties).filter((name) => !own.has(name))
  const parameter = (name: string, place: "path" | "query") => ({
    name,
    in: place,
    required: place === "path" || fields.required.includes(name),
    schema: ownSchema(
      `${operation.name}/parameters/${name}`,
      own.has(name) || place === "query" ? (fields.properties[name] ?? { type: "string" }) : prefixParameters[name],
      fields.defs
    )
  })
  const body = ownSchema(
    `${operation.name}/body`,
    {
      type: "object",
      properties: Object.fromEntries(rest.map((name) => [name, fields.properties[name]])),
      required: fields.required.filter((name) => !own.has(name)),
      additionalProperties: false
    },
    fields.defs
  )
  return {
    operationId: operation.name,
    summary: operation.title,
    description: operation.description,
    tags: [operation.tag],
    parameters: [
      ...inPath.map((name) => parameter(name, "path")),
      ...(takesQuery(operation) ? rest.map((name) => parameter(name, "query")) : [])
    ],
    ...(takesQuery(operation)
      ? {}
      : {
          requestBody: {
            required: (body.required as ReadonlyArray<string>).length > 0,
            content: { "application/json": { schema: body } }
          }
        }),
    responses: {
      [String(operation.success)]: {
        description: operation.success === 201 ? "Created" : "OK",
        content: {
          "application/json": { schema: ownSchema(`${operation.name}/output`, jsonSchemaOf(operation.output)) }
        }
      },
      ...Object.fromEntries(
        [...problemStatuses(operation)].map(([status, problems]) => [
          String(status),
          { description: problems.join("; "), content: problemContent }
        ])
      )
    }
  }
}

/** The HTTP form of get_guide: a guide's text as markdown, which needs no key. */
const guideOperation = (guides: ReadonlyArray<Guide>) => ({
  operationId: "get_guide",
  summary: "Read a guide",
  description: `One guide, as text/markdown: the same text the MCP endpoints serve as guide://{guide}. The guides: ${guides.map((guide) => `${guide.name} (${guide.title})`).join(", ")}.`,
  tags: ["guides"],
  security: [],
  parameters: [
    {
      name: "guide",
      in: "path",
      required: true,
      schema: ownSchema("get_guide/parameters/guide", { type: "string", enum: guides.map((guide) => guide.name) })
    }
  ],
  responses: {
    "200": {
      description: "The guide",
      content: { "text/markdown": { schema: ownSchema("get_guide/output", { type: "string" }) } }
    },
    "304": { description: "The guide is unchanged since the ETag named in If-None-Match" },
    "401": {
      description: `${problemTitle("unauthenticated")}: an unknown guide, without a key`,
      content: problemContent
    },
    "404": { description: `${problemTitle("not_found")}: an unknown guide, with a key`, content: problemContent }
  }
})

/**
 * The OpenAPI 3.1.1 document of the catalog's HTTP operations (HTTP "The OpenAPI document"): each once, under its
 * path relative to the server URL `/v1`, with JSON Schema 2020-12 schemas each under its own `$id`.
 */
export const openApiDocument = (settings: Partial<RuntimeSettings> = {}, sources: OpenApiSources = {}) => {
  const operations = (sources.catalog ?? coreCatalog).filter((operation) => operation.served.http)
  const guides = sources.guides ?? coreGuides
  const paths: Record<string, Record<string, unknown>> = {
    "/guides/{guide}": { get: guideOperation(guides) }
  }
  for (const operation of operations) {
    const path = routeTemplate(operation).slice("/v1".length)
    paths[path] = { ...paths[path], [operation.route.method.toLowerCase()]: operationObject(operation) }
  }
  return {
    openapi: "3.1.1",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: `${settings.serverName ?? defaultSettings.serverName} HTTP API`,
      version: settings.serverVersion ?? defaultSettings.serverVersion
    },
    servers: [{ url: "/v1" }],
    security: [{ bearer: [] }],
    tags: [...new Set(["guides", ...operations.map((operation) => operation.tag)])].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Problem: problemSchema },
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } }
    }
  }
}
