import { DBOS } from "@dbos-inc/dbos-sdk"

/** DBOS Transact launched on the benchmark database, with a workflow of steps computing n → n + 1. */
export interface DbosPeer {
  /** Runs one workflow of `steps` steps from n = 0; its output and the time each step's result came back. */
  readonly run: (steps: number) => Promise<{ readonly output: number; readonly stepEnds: ReadonlyArray<number> }>
  /** Shuts DBOS down; a second call waits for the first. */
  readonly close: () => Promise<void>
}

/** The schema DBOS keeps its system tables in, inside the benchmark's database. */
export const dbosSchema = "dbos_bench"

/** The pool size DBOS gets: the Postgres store's default. */
const poolSize = 10

/** When each step of a running workflow returned, by workflow label (performance.now()). */
const stepEnds = new Map<string, Array<number>>()

const increment = async (n: number) => n + 1

/** The workflow: `steps` durable steps one after the other, each n → n + 1 (each a DBOS step: its output recorded). */
const chain = DBOS.registerWorkflow(
  async (label: string, steps: number) => {
    let n = 0
    const ends = stepEnds.get(label)
    for (let step = 0; step < steps; step++) {
      const current = n
      n = await DBOS.runStep(() => increment(current), { name: "increment" })
      ends?.push(performance.now())
    }
    return n
  },
  { name: "chain" }
)

let workflows = 0

/** Launches DBOS against `url` (its system tables in `dbosSchema`), registered with the chain workflow. */
export const launchDbos = async (url: string): Promise<DbosPeer> => {
  DBOS.setConfig({
    name: "runledger-bench",
    systemDatabaseUrl: url,
    systemDatabaseSchemaName: dbosSchema,
    systemDatabasePoolSize: poolSize,
    logLevel: "error"
  })
  await DBOS.launch()
  let stopped: Promise<void> | undefined
  return {
    run: async (steps) => {
      const label = `chain-${++workflows}`
      const ends: Array<number> = [performance.now()]
      stepEnds.set(label, ends)
      const handle = await DBOS.startWorkflow(chain)(label, steps)
      const output = await handle.getResult()
      stepEnds.delete(label)
      return { output, stepEnds: ends }
    },
    close: () => {
      stopped ??= DBOS.shutdown()
      return stopped
    }
  }
}
