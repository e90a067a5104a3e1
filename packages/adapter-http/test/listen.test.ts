import { listen, toWebHandler } from "@runledger/adapter-http"
import { RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"

const runtime = ManagedRuntime.make(RunLedger.onStore(MemoryStore.layer))
let release: () => void = () => undefined
const released = new Promise<void>((resolve) => {
  release = resolve
})
/** An MCP-like mount: an event stream whose second event waits until the test has read the first. */
const mount = {
  matches: (pathname: string) => pathname === "/mcp" || pathname === "/v1/orgs/local/playbooks/finance/mcp",
  handle: async (request: Request) => {
    const encoder = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(`data: first ${request.method}\n\n`))
        await released
        controller.enqueue(encoder.encode("data: second\n\n"))
        controller.close()
      }
    })
    return new Response(body, { headers: { "content-type": "text/event-stream", "x-request-id": "from-mount" } })
  }
}

let server: Awaited<ReturnType<typeof listen>>
beforeAll(async () => {
  server = await listen(toWebHandler(runtime, { mounts: [mount] }), { port: 0 })
})
afterAll(async () => {
  await server.close()
  await runtime.dispose()
})

describe("listen and mounts", () => {
  test("listens on 127.0.0.1 by default", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  test("a mount is tried first by pathname, and its event stream reaches the client as it is written", async () => {
    const response = await fetch(`${server.url}/mcp`, { method: "POST" })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/event-stream")
    expect(response.headers.get("x-request-id")).toBe("from-mount")
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin")
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    expect((await reader.read()).value).toBe("data: first POST\n\n")
    release()
    let rest = ""
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value
    expect(rest).toBe("data: second\n\n")
  })

  test("a mount answers inside a playbook's path before the catalog's routes", async () => {
    const response = await fetch(`${server.url}/v1/orgs/local/playbooks/finance/mcp`)
    expect(await response.text()).toContain("data: first GET")
  })

  test("other paths reach the catalog", async () => {
    expect((await fetch(`${server.url}/v1/orgs/local/playbooks`)).status).toBe(200)
  })

  test("a method no web-standard request can carry gets a bare 405, and the server goes on", async () => {
    const { request } = await import("node:http")
    const status = await new Promise<number | undefined>((resolve, reject) =>
      request(`${server.url}/health`, { method: "TRACE", agent: false }, (response) => {
        response.resume()
        resolve(response.statusCode)
      })
        .on("error", reject)
        .end()
    )
    expect(status).toBe(405)
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  })

  test("close stops the server", async () => {
    const other = await listen(toWebHandler(runtime), { port: 0 })
    expect((await fetch(`${other.url}/health`)).status).toBe(200)
    await other.close()
    await expect(fetch(`${other.url}/health`)).rejects.toThrow()
  })
})
