import { guides } from "@runledger/core"
import { afterEach, beforeEach, describe, expect, test } from "vitest"
import { startServer, type TestServer } from "./support/testServer.js"

let server: TestServer
beforeEach(async () => {
  server = await startServer({
    localMode: false,
    apiKeys: [{ key: "k", name: "k", org: "acme", permissions: ["org:read"] }]
  })
})
afterEach(() => server.close())

const published = [
  { path: "/v1/openapi.json", type: "application/json" },
  { path: "/.well-known/api-catalog", type: "application/linkset+json" },
  ...guides.map((guide) => ({ path: `/v1/guides/${guide.name}`, type: "text/markdown; charset=utf-8" }))
]

describe("the routes that need no key", () => {
  test("GET /health is up, never cached, and links to the API catalog", async () => {
    const response = await server.fetch("/health")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: "ok" })
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("link")).toBe(`<${server.url}/.well-known/api-catalog>; rel="api-catalog"`)
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin")
  })

  test("each published document answers without a key, with a strong ETag and public caching", async () => {
    for (const { path, type } of published) {
      const response = await server.fetch(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type")).toContain(type)
      expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/)
      expect(response.headers.get("cache-control")).toBe("public, max-age=300")
      expect(response.headers.get("x-request-id")).toBeTruthy()
    }
  })

  test("a guide is the same text the core serves", async () => {
    for (const guide of guides) expect(await (await server.fetch(`/v1/guides/${guide.name}`)).text()).toBe(guide.text)
  })

  test("If-None-Match naming the tag, a list holding it, a weak form of it or * answers 304 without a body", async () => {
    for (const { path } of published) {
      const etag = (await server.fetch(path)).headers.get("etag")!
      for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, "*"]) {
        const response = await server.fetch(path, { headers: { "if-none-match": ifNoneMatch } })
        expect(response.status, `${path} ${ifNoneMatch}`).toBe(304)
        expect(await response.text()).toBe("")
        expect(response.headers.get("etag")).toBe(etag)
        expect(response.headers.get("cache-control")).toBe("public, max-age=300")
      }
      expect((await server.fetch(path, { headers: { "if-none-match": '"other"' } })).status).toBe(200)
    }
  })

  test("the ETag changes with the bytes", async () => {
    const tags = await Promise.all(published.map(async ({ path }) => (await server.fetch(path)).headers.get("etag")))
    expect(new Set(tags).size).toBe(published.length)
  })

  test("HEAD answers the headers without the body", async () => {
    for (const { path } of [...published, { path: "/health" }]) {
      const get = await server.fetch(path)
      const head = await server.fetch(path, { method: "HEAD" })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe("")
      expect(head.headers.get("etag")).toBe(get.headers.get("etag"))
      expect(head.headers.get("link")).toBe(get.headers.get("link"))
    }
  })

  test("another method is method_not_allowed with Allow: GET, HEAD", async () => {
    for (const path of ["/health", ...published.map(({ path }) => path)]) {
      const response = await server.fetch(path, { method: "POST" })
      expect(response.status, path).toBe(405)
      expect(response.headers.get("allow")).toBe("GET, HEAD")
    }
  })

  test("an unknown guide is like any unserved path: 401 without a key, 404 with one", async () => {
    expect((await server.fetch("/v1/guides/nothing")).status).toBe(401)
    expect((await server.fetch("/v1/guides/nothing", { headers: { authorization: "Bearer k" } })).status).toBe(404)
  })
})

describe("the API catalog", () => {
  test("is a linkset of the API at /v1 with its document, guides and status, at the request's origin", async () => {
    const response = await server.fetch("/.well-known/api-catalog")
    expect(response.headers.get("link")).toBe(`<${server.url}/.well-known/api-catalog>; rel="api-catalog"`)
    expect(await response.json()).toEqual({
      linkset: [
        {
          anchor: `${server.url}/v1`,
          "service-desc": [{ href: `${server.url}/v1/openapi.json`, type: "application/openapi+json" }],
          "service-doc": guides.map((guide) => ({
            href: `${server.url}/v1/guides/${guide.name}`,
            type: "text/markdown",
            title: guide.title
          })),
          status: [{ href: `${server.url}/health` }]
        }
      ]
    })
    const head = await server.fetch("/.well-known/api-catalog", { method: "HEAD" })
    expect(head.headers.get("link")).toContain('rel="api-catalog"')
  })

  test("is based on PUBLIC_URL when it is set, and on no X-Forwarded header", async () => {
    const public_ = await startServer({ publicUrl: "https://runtime.example.com/" })
    try {
      const response = await public_.fetch("/.well-known/api-catalog", {
        headers: { "x-forwarded-host": "evil.example" }
      })
      const catalog = await response.json()
      expect(catalog.linkset[0].anchor).toBe("https://runtime.example.com/v1")
      expect(response.headers.get("link")).toBe(
        '<https://runtime.example.com/.well-known/api-catalog>; rel="api-catalog"'
      )
      const forwarded = await server.fetch("/.well-known/api-catalog", {
        headers: { "x-forwarded-host": "evil.example" }
      })
      expect(JSON.stringify(await forwarded.json())).not.toContain("evil.example")
    } finally {
      await public_.close()
    }
  })
})
