import { catalog } from "@runledger/core"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { touchPlaybook } from "./support/testOperations.js"
import { startServer, type TestServer } from "./support/testServer.js"

let server: TestServer
beforeAll(async () => {
  server = await startServer(
    {
      localMode: true,
      apiKeys: [
        {
          key: "admin",
          name: "admin",
          org: "acme",
          permissions: ["org:read", "org:write", "playbook:read", "playbook:write"]
        },
        {
          key: "limited",
          name: "limited",
          org: "acme",
          permissions: ["org:read", "playbook:read"],
          playbooks: ["finance"]
        }
      ]
    },
    { catalog: [...catalog, touchPlaybook] }
  )
})
afterAll(() => server.close())

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`))
const playbookId = fc.oneof(fc.constantFrom("finance", "payroll", "x", "Finance", "a-b-c"), printable(12))
const segment = (value: fc.Arbitrary<string>) => value.map(encodeURIComponent)

const path = fc.oneof(
  fc
    .tuple(
      segment(fc.oneof(fc.constantFrom("local", "acme", "other"), printable(8))),
      segment(playbookId),
      fc.constantFrom(
        "",
        "/retire",
        "/restore",
        "/render",
        "/touch",
        "/nothing",
        "/",
        "/definitions/workflow",
        "/definitions/computation/daily",
        "/definitions/workflow/daily/run",
        "/runs",
        "/runs/0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a",
        "/runs/not-a-run/history",
        "/events",
        "/events/x"
      )
    )
    .map(([org, playbook, tail]) => `/v1/orgs/${org}/playbooks${tail === "/" ? "" : `/${playbook}${tail}`}`),
  fc.constantFrom(
    "/health",
    "/v1/openapi.json",
    "/.well-known/api-catalog",
    "/v1/guides/start",
    "/v1/guides/none",
    "/v1/orgs/local/playbooks",
    "/v1/orgs/acme/playbooks",
    "/v1/orgs/local/playbooks/%E0%A4%A"
  ),
  fc.webPath()
)

const query = fc.oneof(
  fc.constant(""),
  fc.constantFrom(
    "?include_retired=true",
    "?include_retired=maybe",
    "?include_retired=1&include_retired=0",
    "?playbook=x",
    "?org=local"
  ),
  fc.webQueryParameters().map((parameters) => `?${parameters}`)
)

const jsonValue = fc.oneof(
  fc.constantFrom("finance", "payroll", "Finance", " ", "", null, true, 0, "title: x\n"),
  fc.string(),
  fc.integer(),
  fc.jsonValue({ maxDepth: 2 })
)
const body = fc.oneof(
  fc.constant(undefined),
  fc
    .dictionary(
      fc.oneof(
        fc.constantFrom("playbook", "name", "description", "page", "include_retired", "org", "note"),
        fc.string()
      ),
      jsonValue,
      { maxKeys: 5 }
    )
    .map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string(),
  fc.uint8Array({ maxLength: 64 })
)

const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constantFrom("Bearer admin", "Bearer limited", "Bearer nope", "Basic YTpi", "Bearer"),
      printable(30)
    ),
    "content-type": fc.oneof(
      fc.constantFrom(
        "application/json",
        "application/json; charset=utf-8",
        "application/json; charset=latin1",
        "text/plain",
        ""
      ),
      printable(30)
    ),
    "content-encoding": fc.oneof(fc.constantFrom("identity", "gzip", "br"), printable(10)),
    "if-none-match": fc.oneof(fc.constantFrom("*", '"x"', 'W/"x"'), printable(20)),
    accept: printable(20)
  },
  { requiredKeys: [] }
)

const method = fc.oneof(
  fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
  fc.stringMatching(/^[A-Z]{1,8}$/)
)

const requestShape = fc.record({ method, path, query, headers, body })
type Shape = typeof requestShape extends fc.Arbitrary<infer T> ? T : never

/** The request of a shape; GET and HEAD never carry a body, as the Fetch standard allows none. */
const requestInit = (shape: Shape): RequestInit => ({
  method: shape.method,
  headers: shape.headers,
  ...(shape.body === undefined || shape.method === "GET" || shape.method === "HEAD"
    ? {}
    : { body: shape.body as BodyInit })
})

/** Checks one answer: never a defect, the common headers always, and nothing recorded unless it succeeded. */
const check = async (response: Response, factsBefore: number) => {
  expect(response.status).not.toBe(500)
  expect(response.headers.get("x-request-id")).toBeTruthy()
  expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin")
  if (response.status >= 400) expect(response.headers.get("content-type")).toBe("application/problem+json")
  await response.arrayBuffer()
  if (response.status < 200 || response.status > 299) expect(await server.factCount()).toBe(factsBefore)
}

describe("random requests", () => {
  test("10,000 requests at the handler: none is a defect, none refused records anything", async () => {
    let succeeded = 0
    await fc.assert(
      fc.asyncProperty(
        requestShape,
        fc.constantFrom("127.0.0.1", "::1", "10.0.0.7", undefined),
        async (shape, peer) => {
          const before = await server.factCount()
          const request = new Request(`http://runtime.test${shape.path}${shape.query}`, requestInit(shape))
          const response = await server.handler(request, { remoteAddress: peer })
          if (response.status < 300) succeeded++
          await check(response, before)
        }
      ),
      { numRuns: 10_000 }
    )
    expect(succeeded).toBeGreaterThan(0)
  }, 300_000)

  test("500 requests over HTTP: none is a defect, none refused records anything", async () => {
    // node:http answers a method it does not know with a bare 400 before any handler, so only known ones go here.
    const overHttp = fc.record({
      method: fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
      path,
      query,
      headers,
      body
    })
    await fc.assert(
      fc.asyncProperty(overHttp, async (shape) => {
        const before = await server.factCount()
        await check(await server.fetch(`${shape.path}${shape.query}`, requestInit(shape)), before)
      }),
      { numRuns: 500 }
    )
  }, 120_000)
})
