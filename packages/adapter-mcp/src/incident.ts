import type { CallToolResult } from "@modelcontextprotocol/server"
import { incidentInstance, reject } from "@runledger/core"
import { type Cause, Effect } from "effect"
import { failureResult } from "./toolResult.js"

/**
 * What a defect becomes (architecture "Defects are not rejections"): logged once under a new incident id, and
 * answered as an `internal` problem whose `instance` names that incident.
 */
export const incidentResult = (tool: string, cause: Cause.Cause<unknown>): Effect.Effect<CallToolResult> =>
  Effect.gen(function* () {
    const incident = crypto.randomUUID()
    yield* Effect.logError(`The tool ${tool} failed inside the runtime.`, cause).pipe(
      Effect.annotateLogs({ incident, tool })
    )
    return failureResult(
      reject(
        "internal",
        `Something went wrong inside the runtime while it ran ${tool}. Report the incident ${incident} to whoever runs it.`
      ),
      incidentInstance(incident)
    )
  })
