import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterEach, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** Starts the built example server (`npm run build`) on the memory store and waits for its address. */
const startServer = (): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["examples/server/dist/main.js"], {
      cwd: root,
      env: { ...process.env, PORT: "0", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listens on (http:\/\/[^\s]+) /.exec(output)
      if (match) resolve({ child, url: match[1]! })
    })
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${output}`)))
  })

let running: ChildProcess | undefined
afterEach(() => {
  running?.kill("SIGKILL")
  running = undefined
})

it("a stopping server answers the request it holds, refuses run_definition with unavailable, then exits", async () => {
  const { child, url } = await startServer()
  running = child
  const playbook = `${url}/v1/orgs/local/playbooks/stop`
  const post = (path: string, body: unknown) =>
    fetch(`${playbook}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  expect(
    (
      await fetch(`${url}/v1/orgs/local/playbooks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ playbook: "stop", name: "Stop" })
      })
    ).status
  ).toBe(201)
  const source =
    "document:\n  dsl: '1.0.3'\n  namespace: stop\n  name: flow\n  version: '1.0.0'\ndo:\n  - one:\n      set: { done: true }\n"
  expect((await post("/definitions/workflow", { name: "flow", source })).status).toBe(201)
  expect((await post("/definitions/workflow/flow/run", { input: {} })).status).toBe(200)
  const { cursor } = (await (await fetch(`${playbook}/changes`)).json()) as { cursor: string }
  // Held until something changes or 5 seconds pass; nothing changes once the server stops.
  const held = fetch(`${playbook}/changes?since=${encodeURIComponent(cursor)}&wait=5`)
  await new Promise((resolve) => setTimeout(resolve, 300))
  const exited = new Promise<number | null>((resolve) => {
    child.removeAllListeners("exit")
    child.on("exit", resolve)
  })
  child.kill("SIGTERM")
  // A read (which changes nothing, so the held request stays held) shows when the server has begun to stop.
  while ((await fetch(`${playbook}/events?limit=1`)).status === 200)
    await new Promise((resolve) => setTimeout(resolve, 20))
  const refused = await post("/definitions/workflow/flow/run", { input: {} })
  expect(refused.status).toBe(503)
  expect(await refused.json()).toMatchObject({ reason: "unavailable" })
  const answered = await held
  expect(answered.status).toBe(200)
  expect(await answered.json()).toMatchObject({ cursor: expect.any(String) })
  expect(await exited).toBe(0)
}, 120_000)
