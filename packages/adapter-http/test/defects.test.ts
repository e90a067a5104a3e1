import { catalog } from "@runledger/core"
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { misbehave, unavailable } from "./support/testOperations.js"
import { startServer, type TestServer } from "./support/testServer.js"

let server: TestServer
beforeAll(async () => {
  server = await startServer({}, { catalog: [...catalog, misbehave, unavailable] })
})
afterAll(() => server.close())
afterEach(() => vi.restoreAllMocks())

describe("defects", () => {
  test.each(["die", "throw", "interrupt"])(
    "a handler that %ss answers 500 internal with an incident logged once",
    async (how) => {
      const log = vi.spyOn(console, "error").mockImplementation(() => undefined)
      const response = await server.fetch(`/v1/orgs/local/misbehave?how=${how}`)
      expect(response.status).toBe(500)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
      const requestId = response.headers.get("x-request-id")!
      const problem = await response.json()
      expect(problem).toMatchObject({
        type: "https://on.auto/problems/internal",
        status: 500,
        reason: "internal",
        instance: `urn:runledger:incident:${requestId}`
      })
      expect(log).toHaveBeenCalledTimes(1)
      expect(String(log.mock.calls[0][0])).toContain(requestId)
      expect(response.headers.get("retry-after")).toBeNull()
    }
  )

  test("a mount that throws answers 500 internal too", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const { toWebHandler } = await import("@runledger/adapter-http")
    const handler = toWebHandler(server.runtime, {
      mounts: [{ matches: (path) => path === "/mcp", handle: () => Promise.reject(new Error("mount broke")) }]
    })
    const response = await handler(new Request("http://127.0.0.1/mcp", { method: "POST" }), {
      remoteAddress: "127.0.0.1"
    })
    expect(response.status).toBe(500)
    expect((await response.json()).instance).toBe(`urn:runledger:incident:${response.headers.get("x-request-id")}`)
    expect(log).toHaveBeenCalledTimes(1)
  })
})

describe("Retry-After", () => {
  const fetchUnavailable = (query: string) => server.fetch(`/v1/orgs/local/unavailable?${query}`)

  test("comes with an unavailable that a retry may resolve, in whole seconds", async () => {
    const response = await fetchUnavailable("retry_after=2.5")
    expect(response.status).toBe(503)
    expect(response.headers.get("retry-after")).toBe("3")
    expect(await response.json()).toMatchObject({ reason: "unavailable", type: "https://on.auto/problems/unavailable" })
  })

  test("never comes with the kinds no wait resolves, nor with because stalled", async () => {
    for (const query of [
      "kind=tools_unfinished",
      "kind=tool_not_offered",
      "kind=tool_not_read_only",
      "kind=model_not_offered",
      "because=stalled"
    ]) {
      const response = await fetchUnavailable(`${query}&retry_after=5`)
      expect(response.status, query).toBe(503)
      expect(response.headers.get("retry-after"), query).toBeNull()
    }
  })

  test("does not come where the rejection names no delay", async () => {
    expect((await fetchUnavailable("")).headers.get("retry-after")).toBeNull()
  })

  test("a query number of another form is invalid_input at its field", async () => {
    const response = await fetchUnavailable("retry_after=soon")
    expect(response.status).toBe(422)
    expect((await response.json()).errors[0].pointer).toBe("/retry_after")
  })
})
