import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** Starts the example server from the entry point `npm start` runs (here from its sources, through tsx) and waits for its address. */
const startServer = (env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/server/src/main.ts"], {
      cwd: root,
      env: { ...process.env, PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${output}`)), 60_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listens on (http:\/\/[^\s]+) /.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ child, url: match[1] })
      }
    }
    child.stdout?.on("data", read)
    child.stderr?.on("data", read)
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited with ${code}: ${output}`))
    })
  })

/** Stops the server with SIGTERM and gives its exit code. */
const stop = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => {
    child.removeAllListeners("exit")
    child.on("exit", (code) => resolve(code))
    child.kill("SIGTERM")
  })

let running: ChildProcess | undefined
afterEach(() => {
  running?.kill("SIGKILL")
  running = undefined
})

describe("the example server", () => {
  it("starts in local mode on the memory store (DATABASE_URL empty), serves HTTP and MCP, and stops cleanly", async () => {
    const { child, url } = await startServer({ DATABASE_URL: "" })
    running = child
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    expect(health.headers.get("link")).toContain("/.well-known/api-catalog")
    const created = await fetch(`${url}/v1/orgs/local/playbooks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ playbook: "finance", name: "Finance" })
    })
    expect(created.status).toBe(201)
    const initialized = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
      })
    })
    expect(initialized.status).toBe(200)
    expect(await initialized.text()).toContain('"protocolVersion":"2025-06-18"')
    expect(await stop(child)).toBe(0)
    running = undefined
  }, 90_000)

  it("refuses to start local mode on an address other than loopback", async () => {
    await expect(startServer({ HOST: "0.0.0.0", DATABASE_URL: "" })).rejects.toThrow(/loopback/)
  }, 90_000)
})
