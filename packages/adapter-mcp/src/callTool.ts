import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server"
import { dispatch, invalidAt, type OperationCall, type Rejection, type RunLedgerRuntime, reject } from "@runledger/core"
import { Cause, Effect, Either, Exit } from "effect"
import type { Connection } from "./Connection.js"
import { incidentResult } from "./incident.js"
import { playbookArgument } from "./inputSchemaOf.js"
import type { CatalogTool } from "./ToolCatalog.js"
import { failureResult, successResult } from "./toolResult.js"

/** The JSON-RPC error message of a call in hand when the runtime stops (MCP seed "Endpoints"). */
export const stoppedMessage = "RunLedger stopped while it handled this request, so it may or may not have taken effect"

/** The call a tool's arguments make: the `playbook` argument taken out where the tool takes one. */
const callOf = (
  { operation, takesPlaybook }: CatalogTool,
  connection: Connection,
  args: Record<string, unknown>
): Either.Either<OperationCall, Rejection> => {
  const { endpoint, caller, origin } = connection
  const base = {
    operation,
    caller,
    origin,
    ...(endpoint.org === undefined ? {} : { org: endpoint.org }),
    ...(endpoint.kind === "directory" ? { listing: "directory" as const } : {})
  }
  if (!takesPlaybook)
    return Either.right({
      ...base,
      input: args,
      ...(endpoint.playbook === undefined ? {} : { playbook: endpoint.playbook })
    })
  const { [playbookArgument]: playbook, ...input } = args
  if (typeof playbook !== "string")
    return Either.left(
      invalidAt(
        `/${playbookArgument}`,
        playbook === undefined
          ? `${playbookArgument}: is required, the id of the playbook this tool acts in.`
          : `${playbookArgument}: must be a playbook id, given as text.`
      )
    )
  return Either.right({ ...base, input, playbook })
}

/** The JSON-RPC error of a call in hand when the runtime stops. */
const stoppedError = () => new ProtocolError(ProtocolErrorCode.InternalError, stoppedMessage)

/** Settles with the runtime's answer, or rejects with `stoppedError` as soon as the runtime stops. */
const unlessStopped = async <A>(answer: Promise<A>, shutdown: AbortSignal | undefined): Promise<A> => {
  if (shutdown === undefined) return answer
  let stop = () => {}
  const stopped = new Promise<never>((_resolve, rejectWith) => {
    stop = () => rejectWith(stoppedError())
  })
  shutdown.addEventListener("abort", stop, { once: true })
  try {
    return await Promise.race([answer, stopped])
  } finally {
    shutdown.removeEventListener("abort", stop)
  }
}

/**
 * Runs one tool call through the dispatcher on the runtime and shapes its result. A rejection is a failed result,
 * a defect an `internal` one; a call the client abandons is interrupted, and one in hand when the runtime stops is
 * answered with the JSON-RPC error of `stoppedMessage`.
 */
export const callTool = async (
  runtime: RunLedgerRuntime,
  connection: Connection,
  tool: CatalogTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  shutdown: AbortSignal | undefined
): Promise<CallToolResult> => {
  const call = callOf(tool, connection, args)
  if (Either.isLeft(call)) return failureResult(call.left)
  const name = tool.operation.name
  const answer = dispatch(call.right).pipe(
    Effect.match({ onFailure: failureResult, onSuccess: successResult }),
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : incidentResult(name, cause)
    )
  )
  const ending = shutdown === undefined ? signal : AbortSignal.any([signal, shutdown])
  const exit = await unlessStopped(runtime.runPromiseExit(answer, { signal: ending }), shutdown)
  if (Exit.isSuccess(exit)) return exit.value
  if (shutdown?.aborted) throw stoppedError()
  if (Cause.isInterruptedOnly(exit.cause))
    return failureResult(reject("cancelled", `The call of ${name} was cancelled before it finished.`))
  return Effect.runPromise(incidentResult(name, exit.cause))
}
