// A runtime's process that opens a session to a stdio server ignoring the end of its input, lists its tools, stops
// the runtime and then ends of itself (nothing else keeps it alive): the server must not outlive it.
// Arguments: the server script, and a mark its command line carries so the test can look for it afterwards.
import { defaultSettings, RuntimeConfig, ToolServers } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, Layer, ManagedRuntime } from "effect"

const [script, mark] = process.argv.slice(2)
const entry = {
  name: "stubborn",
  type: "stdio",
  command: process.execPath,
  args: [script, mark],
  env: { INVENTORY_STUBBORN: "1" },
  connectTimeoutMs: 30_000
}
const runtime = ManagedRuntime.make(
  ToolServersLive.layer({}).pipe(
    Layer.provide(Layer.succeed(RuntimeConfig, { ...defaultSettings, toolServers: [entry] }))
  )
)
const tools = await runtime.runPromise(Effect.flatMap(ToolServers, (servers) => servers.list("stubborn", {})))
process.stdout.write(`listed ${tools.length}\n`)
await runtime.dispose()
process.stdout.write("stopped\n")
