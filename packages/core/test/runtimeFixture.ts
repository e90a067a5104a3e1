import {
  type ApiKeyConfig,
  Authenticator,
  type Caller,
  dispatch,
  type Formats,
  findOperation,
  type OperationAnswer,
  type Rejection,
  RunLedger,
  type RuntimeSettings
} from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, type Either, type Layer, ManagedRuntime } from "effect"
import { echoFormats } from "./echoFormat.js"

/** Keys every core test may use: a full key, a read-only key and a key limited to two playbooks. */
export const testKeys: ReadonlyArray<ApiKeyConfig> = [
  {
    key: "full",
    name: "build-bot",
    org: "acme",
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"]
  },
  { key: "reader", name: "reader", org: "acme", permissions: ["org:read", "playbook:read"] },
  {
    key: "limited",
    name: "limited",
    org: "acme",
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"],
    playbooks: ["finance", "sales"]
  },
  { key: "other-org", name: "elsewhere", org: "globex", permissions: ["org:read", "org:write"] }
]

/** A runtime on a store (memory unless given) with the test keys, and helpers to call operations as a key. */
export const makeRuntime = (
  settings: Partial<RuntimeSettings> = {},
  formats: Layer.Layer<Formats> = echoFormats,
  store: Parameters<typeof RunLedger.onStore>[0] = MemoryStore.layer
) => {
  const runtime = ManagedRuntime.make(
    RunLedger.onStore(store, { localMode: false, apiKeys: testKeys, ...settings }, formats)
  )
  const callerOf = (key: string): Promise<Caller> =>
    runtime.runPromise(Effect.flatMap(Authenticator, (auth) => auth.authenticate({ bearer: key, loopback: true })))
  const call = async (
    key: string,
    operation: string,
    input: unknown,
    more: { org?: string; playbook?: string } = {}
  ): Promise<Either.Either<OperationAnswer, Rejection>> => {
    const caller = await callerOf(key)
    const found = findOperation(operation)
    if (found === undefined) throw new Error(`no operation ${operation}`)
    return runtime.runPromise(
      Effect.either(dispatch({ operation: found, caller, input, origin: "http://127.0.0.1:4100", ...more }))
    )
  }
  return { runtime, call, callerOf }
}
