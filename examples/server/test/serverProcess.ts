import { type ChildProcess, spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import type { TestDatabase } from "@runledger/store-postgres/testing"
import { freePort } from "./serverDocuments.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** A child process of the built example server (`npm run build`) on a test's database, and what it said. */
export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** False once the test killed it. */
  alive: boolean
  /** When (`performance.now()`) it said it took the sweeps lease (ADR 0402). */
  readonly leaseTaken: Array<number>
  /** When it said it gave the lease up. */
  readonly leaseGivenUp: Array<number>
  /** What it printed, kept to say why it stopped. */
  readonly output: Array<string>
  /** Its exit code or signal once it exited. */
  exited?: number | string
}

/** Starts the example server on `database`, on a port of its own; `untilHealthy` waits for it to answer. */
export const startServer = async (database: TestDatabase): Promise<ServerProcess> => {
  const port = await freePort()
  const child = spawn(process.execPath, ["examples/server/dist/main.js"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    child,
    alive: true,
    leaseTaken: [],
    leaseGivenUp: [],
    output: []
  }
  createInterface({ input: child.stdout! }).on("line", (line) => {
    server.output.push(line)
    if (line.includes("holds the sweeps lease")) server.leaseTaken.push(performance.now())
    else if (line.includes("gave up the sweeps lease")) server.leaseGivenUp.push(performance.now())
  })
  createInterface({ input: child.stderr! }).on("line", (line) => server.output.push(line))
  child.on("exit", (code, signal) => {
    server.exited = code ?? signal ?? "unknown"
  })
  return server
}

/** Whether the server holds the sweeps lease, by the last thing it said of it. */
export const holdsLease = (server: ServerProcess): boolean =>
  server.alive && (server.leaseTaken.at(-1) ?? -1) > (server.leaseGivenUp.at(-1) ?? -1)

/** Waits until the server answers `/health`; fails with what it printed if it exits first. */
export const untilHealthy = async (server: ServerProcess): Promise<void> => {
  for (;;) {
    if (server.exited !== undefined)
      throw new Error(`the server exited (${server.exited}) before answering:\n${server.output.join("\n")}`)
    try {
      if ((await fetch(`${server.url}/health`)).ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
