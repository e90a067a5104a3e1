import { type ChildProcess, spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

/** The built example server (`npm run build`). */
const serverMain = fileURLToPath(new URL("../../examples/server/dist/main.js", import.meta.url))

/** How long an instance may take to start (its migrations queue behind the others'). */
const startMillis = 60_000

/** One instance of the example server, a child process. */
export interface ServerInstance {
  readonly url: string
  readonly pid: number
  readonly child: ChildProcess
  /** Whether it holds the sweeps lease, by the last thing it said of it (ADR 0402). */
  readonly holdsLease: () => boolean
}

/** Starts one instance on `url`'s database and `schema`, on a port of its own; resolves once it listens. */
const startInstance = (databaseUrl: string, schema: string): Promise<ServerInstance> =>
  new Promise((resolve, reject) => {
    const nodeArguments = process.env.BENCH_SERVER_NODE_OPTIONS?.split(" ").filter((part) => part !== "") ?? []
    const child = spawn(process.execPath, [...nodeArguments, serverMain], {
      env: { ...process.env, PORT: "0", DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const said: Array<string> = []
    let holds = false
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`an instance did not listen within ${startMillis / 1000} s:\n${said.join("\n")}`))
    }, startMillis)
    const hear = (line: string) => {
      said.push(line)
      if (line.includes("holds the sweeps lease")) holds = true
      else if (line.includes("gave up the sweeps lease")) holds = false
      const listening = /listens on (http:\/\/\S+) /.exec(line)
      if (listening === null) return
      clearTimeout(timer)
      resolve({ url: listening[1]!, pid: child.pid!, child, holdsLease: () => holds })
    }
    createInterface({ input: child.stdout! }).on("line", hear)
    createInterface({ input: child.stderr! }).on("line", hear)
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`an instance exited (${code}) before it listened:\n${said.join("\n")}`))
    })
  })

/** Stops an instance as an operator would (SIGTERM, a graceful stop), or kills it after 20 s. */
const stopInstance = (instance: ServerInstance): Promise<void> =>
  new Promise((resolve) => {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) return resolve()
    const timer = setTimeout(() => instance.child.kill("SIGKILL"), 20_000)
    instance.child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    instance.child.kill("SIGTERM")
  })

/** Starts `count` instances at once on one database and schema. */
export const startInstances = async (
  count: number,
  databaseUrl: string,
  schema: string
): Promise<ReadonlyArray<ServerInstance>> => {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startInstance(databaseUrl, schema)))
  const instances = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
  const failed = started.find((result) => result.status === "rejected")
  if (failed === undefined) return instances
  await stopInstances(instances)
  throw failed.reason
}

/** Stops every instance. */
export const stopInstances = async (instances: ReadonlyArray<ServerInstance>): Promise<void> => {
  await Promise.all(instances.map(stopInstance))
}
