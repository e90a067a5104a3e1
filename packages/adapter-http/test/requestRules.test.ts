import { request as httpRequest } from "node:http"
import { afterEach, beforeEach, describe, expect, test } from "vitest"
import { json, startServer, type TestServer } from "./support/testServer.js"

let server: TestServer
beforeEach(async () => {
  server = await startServer()
})
afterEach(() => server.close())

const base = "/v1/orgs/local/playbooks"
const problemOf = async (response: Response) => (await response.json()) as { reason: string; errors?: unknown }

/** Sends raw bytes over node:http, so a test controls every header and byte the server gets. */
const raw = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Uint8Array | string
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> =>
  new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}${path}`, { method, headers, agent: false }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk) => {
        text += chunk
      })
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }))
    })
    request.on("error", reject)
    if (body !== undefined) request.write(body)
    request.end()
  })

/** Asserts a refusal recorded nothing, whatever it was. */
const refused = async (response: Response, status: number, reason: string) => {
  expect(response.status).toBe(status)
  expect(response.headers.get("content-type")).toBe("application/problem+json")
  expect((await problemOf(response)).reason).toBe(reason)
  expect(await server.factCount()).toBe(0)
}

describe("command bodies", () => {
  const send = (body: BodyInit | null, headers: Record<string, string>) =>
    server.fetch(base, { method: "POST", headers, body })
  const valid = JSON.stringify({ playbook: "finance", name: "Finance" })

  test("a body without Content-Type is unsupported_media_type", async () => {
    await refused(await send(new TextEncoder().encode(valid), {}), 415, "unsupported_media_type")
  })

  test("a body of another media type is unsupported_media_type", async () => {
    await refused(await send(valid, { "content-type": "text/plain" }), 415, "unsupported_media_type")
    await refused(
      await send(valid, { "content-type": "application/x-www-form-urlencoded" }),
      415,
      "unsupported_media_type"
    )
  })

  test("a charset other than UTF-8 is unsupported_media_type; utf-8 in any case or quoted is accepted", async () => {
    await refused(
      await send(valid, { "content-type": "application/json; charset=latin1" }),
      415,
      "unsupported_media_type"
    )
    const response = await send(valid, { "content-type": 'Application/JSON; Charset="UTF-8"' })
    expect(response.status).toBe(201)
  })

  test("a compressed body is unsupported_media_type; identity is accepted", async () => {
    await refused(
      await send(valid, { "content-type": "application/json", "content-encoding": "gzip" }),
      415,
      "unsupported_media_type"
    )
    expect((await send(valid, { "content-type": "application/json", "content-encoding": "identity" })).status).toBe(201)
  })

  test("invalid JSON, a non-object and invalid UTF-8 are bad_request", async () => {
    for (const body of ["{", "[1,2]", "null", "42", '"text"'])
      await refused(await send(body, { "content-type": "application/json" }), 400, "bad_request")
    const broken = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])
    await refused(await send(broken, { "content-type": "application/json" }), 400, "bad_request")
  })

  test("a body over 1 MiB is content_too_large", async () => {
    const big = JSON.stringify({ playbook: "finance", name: "x".repeat(1_048_576) })
    await refused(await send(big, { "content-type": "application/json" }), 413, "content_too_large")
  })

  test("a body whose Content-Length is over 1 MiB is content_too_large before it is read", async () => {
    const declared = await raw("POST", base, { "content-type": "application/json", "content-length": "2000000" })
    expect(declared.status).toBe(413)
  })

  test("a body over 1 MiB sent without a Content-Length is content_too_large once its bytes pass the limit", async () => {
    const chunked = await raw(
      "POST",
      base,
      { "content-type": "application/json" },
      `{"name":"${"a".repeat(1_100_000)}"}`
    )
    expect(chunked.status).toBe(413)
    expect(JSON.parse(chunked.body).reason).toBe("content_too_large")
    expect(await server.factCount()).toBe(0)
  })

  test("a body of exactly 1 MiB is read", async () => {
    const padding = 1_048_576 - JSON.stringify({ playbook: "finance", name: "Finance", description: "" }).length
    const body = JSON.stringify({ playbook: "finance", name: "Finance", description: " ".repeat(padding) })
    expect(new TextEncoder().encode(body).length).toBe(1_048_576)
    expect((await send(body, { "content-type": "application/json" })).status).toBe(201)
  })

  test("an empty body is the empty object: accepted where the input needs nothing, invalid_input where it does", async () => {
    await server.fetch(base, json("POST", { playbook: "finance", name: "Finance" }))
    expect((await server.fetch(`${base}/finance/retire`, { method: "POST" })).status).toBe(200)
    const missing = await server.fetch(base, { method: "POST" })
    expect(missing.status).toBe(422)
    expect((await problemOf(missing)).reason).toBe("invalid_input")
  })

  test("an unknown field is invalid_input at its pointer", async () => {
    const response = await send(JSON.stringify({ playbook: "finance", name: "F", colour: "red" }), {
      "content-type": "application/json"
    })
    expect(response.status).toBe(422)
    expect((await problemOf(response)).errors).toEqual([expect.objectContaining({ pointer: "/colour" })])
  })
})

describe("where a field may be given", () => {
  test("a POST or PUT with a query string is bad_request", async () => {
    await refused(
      await server.fetch(`${base}?name=x`, json("POST", { playbook: "finance", name: "F" })),
      400,
      "bad_request"
    )
  })

  test("a GET with a body is bad_request", async () => {
    const response = await raw("GET", base, { "content-type": "application/json", "content-length": "2" }, "{}")
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body).reason).toBe("bad_request")
  })

  test("a field in the path and the body is bad_request", async () => {
    await server.fetch(base, json("POST", { playbook: "finance", name: "F" }))
    const response = await server.fetch(`${base}/finance`, json("PUT", { playbook: "finance", name: "G" }))
    expect(response.status).toBe(400)
    expect((await problemOf(response)).reason).toBe("bad_request")
    expect((await server.fetch(base, json("POST", { org: "local", playbook: "other", name: "F" }))).status).toBe(400)
  })

  test("a field in the path and the query, or a query key given twice, is bad_request", async () => {
    await server.fetch(base, json("POST", { playbook: "finance", name: "F" }))
    expect((await server.fetch(`${base}/finance?playbook=finance`)).status).toBe(400)
    expect((await server.fetch(`${base}?org=local`)).status).toBe(400)
    const twice = await server.fetch(`${base}?include_retired=true&include_retired=true`)
    expect(twice.status).toBe(400)
    expect((await problemOf(twice)).reason).toBe("bad_request")
  })

  test("query values are read by the field's type; a value of another type is invalid_input at the field", async () => {
    expect((await server.fetch(`${base}?include_retired=true`)).status).toBe(200)
    for (const value of ["yes", "1", "TRUE", ""]) {
      const response = await server.fetch(`${base}?include_retired=${value}`)
      expect(response.status, value).toBe(422)
      const { errors } = (await problemOf(response)) as { errors: Array<{ pointer: string }> }
      expect(errors.length).toBeGreaterThan(0)
      for (const error of errors) expect(error.pointer).toBe("/include_retired")
    }
  })

  test("an unknown query parameter is invalid_input at its pointer", async () => {
    const response = await server.fetch(`${base}?colour=red`)
    expect(response.status).toBe(422)
    expect((await problemOf(response)).errors).toEqual([expect.objectContaining({ pointer: "/colour" })])
  })
})

describe("paths and methods", () => {
  test("an unknown path is not_found", async () => {
    for (const path of ["/", "/v1", "/v1/orgs/local", "/v1/orgs/local/playbooks/finance/nothing", `${base}/`]) {
      const response = await server.fetch(path)
      expect(response.status, path).toBe(404)
      expect((await problemOf(response)).reason).toBe("not_found")
    }
  })

  test("a known path with another method is method_not_allowed with Allow", async () => {
    const list = await server.fetch(base, { method: "DELETE" })
    expect(list.status).toBe(405)
    expect(list.headers.get("allow")).toBe("GET, HEAD, POST")
    expect((await problemOf(list)).reason).toBe("method_not_allowed")
    const one = await server.fetch(`${base}/finance`, { method: "POST" })
    expect(one.status).toBe(405)
    expect(one.headers.get("allow")).toBe("GET, HEAD, PUT")
    const retire = await server.fetch(`${base}/finance/retire`)
    expect(retire.headers.get("allow")).toBe("POST")
  })

  test("a path parameter is read percent-decoded, and a malformed encoding is bad_request", async () => {
    await server.fetch(base, json("POST", { playbook: "finance", name: "F" }))
    expect((await server.fetch(`${base}/%66inance`)).status).toBe(200)
    expect((await raw("GET", `${base}/%E0%A4%A`, {})).status).toBe(400)
  })

  test("a Host that would move the path gets a bare 400", async () => {
    const response = await raw("GET", "/health", { host: "evil.example/v1?" })
    expect(response.status).toBe(400)
    expect(response.body).toBe("")
  })
})
