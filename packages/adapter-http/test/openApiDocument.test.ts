import { openApiDocument } from "@runledger/adapter-http"
import { catalog, guides, ReasonStatus } from "@runledger/core"
import { Validator } from "@seriousme/openapi-schema-validator"
import { describe, expect, test } from "vitest"
import { misbehave, touchPlaybook } from "./support/testOperations.js"
import { startServer } from "./support/testServer.js"

type Document = ReturnType<typeof openApiDocument>
type OperationObject = {
  operationId: string
  parameters: Array<{ name: string; in: string; required: boolean }>
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, { content?: Record<string, unknown> }>
}

const operationOf = (document: Document, path: string, method: string) =>
  (document.paths[path] as Record<string, OperationObject>)[method]

/** Every `$id` in a value, wherever it is nested. */
const idsIn = (value: unknown): Array<string> =>
  typeof value !== "object" || value === null
    ? []
    : Object.entries(value).flatMap(([key, inner]) =>
        key === "$id" && typeof inner === "string" ? [inner] : idsIn(inner)
      )

describe("the OpenAPI document", () => {
  const document = openApiDocument()

  test("validates as OpenAPI 3.1", async () => {
    const validator = new Validator()
    const result = await validator.validate(document as unknown as Record<string, unknown>)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
    expect(document.openapi).toBe("3.1.1")
    expect(document.servers).toEqual([{ url: "/v1" }])
  })

  test("holds every operation served over HTTP once, under its route relative to /v1", () => {
    const served = catalog.filter((operation) => operation.served.http)
    expect(served.length).toBeGreaterThan(0)
    for (const operation of served) {
      const prefix = operation.scope === "org" ? "/orgs/{org}" : "/orgs/{org}/playbooks/{playbook}"
      const object = operationOf(document, prefix + operation.route.path, operation.route.method.toLowerCase())
      expect(object, operation.name).toMatchObject({
        operationId: operation.name,
        summary: operation.title,
        description: operation.description,
        tags: [operation.tag]
      })
      expect(Object.keys(object.responses)).toContain(String(operation.success))
    }
    const ids = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods as Record<string, OperationObject>).map((object) => object.operationId)
    )
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).not.toContain("get_guide_text")
  })

  test("lists the guides' names", () => {
    const guide = operationOf(document, "/guides/{guide}", "get")
    const names = guides.map((known) => known.name)
    expect(names).toEqual(expect.arrayContaining(["start", "terminology"]))
    expect(JSON.stringify(guide)).toContain(`"enum":${JSON.stringify(names)}`)
  })

  test("gives every schema its own $id under the runtime's base, each once", () => {
    const ids = idsIn(document)
    expect(ids.length).toBeGreaterThan(catalog.length)
    for (const id of ids) expect(id).toMatch(/^https:\/\/on\.auto\/schemas\/runtime\/.+\.json$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  test("takes a GET's input in the query and a command's in the body, never a path field twice", () => {
    const list = operationOf(document, "/orgs/{org}/playbooks", "get")
    expect(list.parameters.map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ["org", "path", true],
      ["include_retired", "query", false]
    ])
    expect(list.requestBody).toBeUndefined()
    const update = operationOf(document, "/orgs/{org}/playbooks/{playbook}", "put")
    expect(update.parameters.map((parameter) => parameter.name)).toEqual(["org", "playbook"])
    const body = update.requestBody!.content["application/json"].schema as { properties: object; required: unknown }
    expect(Object.keys(body.properties).sort()).toEqual(["description", "name", "page"])
    expect(body.required).toEqual([])
    const create = operationOf(document, "/orgs/{org}/playbooks", "post")
    expect(create.requestBody!.required).toBe(true)
  })

  test("lists each problem under its status as application/problem+json", () => {
    const statusesOf = (object: OperationObject) => Object.keys(object.responses).map(Number)
    const create = operationOf(document, "/orgs/{org}/playbooks", "post")
    expect(statusesOf(create)).toEqual([201, 400, 401, 403, 409, 413, 415, 422, 500, 503])
    expect(create.responses["409"].content).toHaveProperty(["application/problem+json"])
    expect(statusesOf(operationOf(document, "/orgs/{org}/playbooks", "get"))).toEqual([
      200, 400, 401, 403, 422, 500, 503
    ])
    const render = operationOf(document, "/orgs/{org}/playbooks/{playbook}/render", "post")
    expect(statusesOf(render)).toEqual([200, 400, 401, 403, 404, 413, 415, 422, 500, 503])
  })

  test("lists conflict for a command inside a playbook, which a retired playbook refuses", () => {
    const withTouch = openApiDocument({}, { catalog: [...catalog, touchPlaybook, misbehave] })
    const touch = operationOf(withTouch, "/orgs/{org}/playbooks/{playbook}/touch", "post")
    expect(Object.keys(touch.responses)).toContain("409")
    expect(JSON.stringify(touch.responses["409"])).toContain("retired")
  })

  test("every refusal the catalog declares is a reason with a status", () => {
    for (const operation of catalog)
      for (const refusal of operation.refusals) expect(Object.keys(ReasonStatus), operation.name).toContain(refusal)
  })

  test("is served at /v1/openapi.json as built from the runtime's settings and catalog", async () => {
    const server = await startServer({ serverName: "Acme runtime" })
    try {
      const served = await (await server.fetch("/v1/openapi.json")).json()
      expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument({ serverName: "Acme runtime" }))))
      expect(served.info.title).toBe("Acme runtime HTTP API")
    } finally {
      await server.close()
    }
  })
})
