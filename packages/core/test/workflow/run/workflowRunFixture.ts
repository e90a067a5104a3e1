import {
  Authenticator,
  dispatch,
  findOperation,
  type OperationAnswer,
  type Rejection,
  RunLedger,
  type RuntimeSettings
} from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, Either, ManagedRuntime } from "effect"
import { testKeys } from "../../runtimeFixture.js"

/** The header of a test workflow: five lines. */
const header = "document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\n"

/** A workflow document: the header, top-level keys, then `do:` and the task lines. */
export const workflowSource = (tasks: string, head = ""): string => `${header}${head}do:\n${tasks}`

/** A runtime with every format (workflows, computation, interaction) on a store, and helpers to drive it. */
export const makeWorkflowRuntime = (
  store: Parameters<typeof RunLedger.onStore>[0] = MemoryStore.layer,
  settings: Partial<RuntimeSettings> = {}
) => {
  const runtime = ManagedRuntime.make(RunLedger.onStore(store, { localMode: false, apiKeys: testKeys, ...settings }))
  const call = async (
    operation: string,
    input: unknown,
    playbook = "flows"
  ): Promise<Either.Either<OperationAnswer, Rejection>> => {
    const caller = await runtime.runPromise(
      Effect.flatMap(Authenticator, (auth) => auth.authenticate({ bearer: "full", loopback: true }))
    )
    const found = findOperation(operation)
    if (found === undefined) throw new Error(`no operation ${operation}`)
    return runtime.runPromise(
      Effect.either(
        dispatch({ operation: found, caller, input, origin: "http://127.0.0.1:4100", org: "acme", playbook })
      )
    )
  }
  /** Calls an operation that must succeed, answering its output. */
  const ok = async (operation: string, input: unknown): Promise<any> => {
    const answer = await call(operation, input)
    if (Either.isLeft(answer)) throw new Error(`${operation} refused: ${JSON.stringify(answer.left)}`)
    return (answer.right as { output: unknown }).output
  }
  const setUp = async () => {
    const created = await call("create_playbook", { playbook: "flows", name: "Flows" }, undefined as never)
    if (Either.isLeft(created)) throw new Error(JSON.stringify(created.left))
  }
  /** Saves a function, sending the save again while no checker is ready (`unavailable` says to). */
  const saveFunction = async (type: string, name: string, source: string) => {
    for (let attempt = 0; ; attempt++) {
      const saved = await call("create_definition", { type, name, source, diagram: "none" })
      if (Either.isRight(saved) || saved.left.reason !== "unavailable" || attempt === 20) return saved
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
  /** Saves a workflow under a name. */
  const saveWorkflow = (name: string, source: string) => ok("create_definition", { type: "workflow", name, source })
  /** Waits until the run has ended, reading it every few milliseconds. */
  const ended = async (runId: string, within = 10_000): Promise<any> => {
    const until = Date.now() + within
    for (;;) {
      const run = await ok("get_run", { run_id: runId })
      if (run.status !== "started") return run
      if (Date.now() > until) throw new Error(`run ${runId} still started: ${JSON.stringify(run)}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  return { runtime, call, ok, setUp, saveFunction, saveWorkflow, ended }
}
