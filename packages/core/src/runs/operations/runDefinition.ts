import { Clock, Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { RuntimeConfig } from "../../config/RuntimeConfig.js"
import { DefinitionType } from "../../definitions/DefinitionType.js"
import { DefinitionName } from "../../definitions/definitionFields.js"
import { readDefinition } from "../../definitions/readDefinition.js"
import { Uuid } from "../../domain/Ids.js"
import { conflict } from "../../domain/Rejection.js"
import { Ids } from "../../ports/Ids.js"
import { studioLink } from "../../studio/studioLink.js"
import { checkInputBounds } from "../inputBounds.js"
import { performRun } from "../performRun.js"
import { publicRun, Run } from "../RunRecord.js"
import { runSummary } from "../runSummary.js"

/** run_definition's input: the definition (path), its optional input and an optional run id to retry under. */
export const RunDefinitionInput = Schema.Struct({
  type: DefinitionType,
  name: DefinitionName,
  input: Schema.optional(
    Schema.Unknown.annotations({ description: "The run's input, any JSON value its schema allows." })
  ),
  run_id: Schema.optional(
    Uuid.annotations({
      description: "A UUID to run under: the same id with the same definition and input returns what that run recorded."
    })
  )
})

/** run_definition: runs a function or workflow once, on its latest version. */
export const runDefinition = declare({
  name: "run_definition",
  title: "Run a definition",
  description:
    "Run a function or workflow once, with its input and an optional run_id. A workflow does a job the person wants done again; a function runs alone to be tested. A run that finishes later returns started, and get_run shows how it ended. Sending the same run_id with the same input again returns what that run recorded instead of running again.",
  tag: "runs",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/definitions/{type}/{name}/run" },
  input: RunDefinitionInput,
  output: Run,
  permission: "playbook:write",
  hints: { reachesOutside: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found", "conflict", "cancelled", "unanswered", "unavailable"],
  summarize: runSummary,
  handle: (input, { caller, org, playbook, origin }) =>
    Effect.gen(function* () {
      const definition = yield* readDefinition(org, playbook!.id, input.type, input.name)
      const named = `${input.type === "workflow" ? "workflow" : `${input.type} function`} ${input.name}`
      if (definition.status === "retired")
        return yield* Effect.fail(
          conflict(`The ${named} is retired, so it cannot be run; restore it first.`, "retired")
        )
      if (definition.status === "paused")
        return yield* Effect.fail(
          conflict(`The ${named} is paused, so it starts no run until it is resumed with resume_definition.`, "paused")
        )
      const runInput = input.input === undefined ? null : input.input
      const outOfBounds = checkInputBounds(runInput)
      if (outOfBounds !== undefined) return yield* Effect.fail(outOfBounds)
      const ids = yield* Ids
      const runId = input.run_id?.toLowerCase() ?? (yield* ids.uuidv7(yield* Clock.currentTimeMillis))
      const run = yield* performRun({
        org,
        playbook: playbook!.id,
        definition,
        input: runInput,
        runId,
        caller,
        freshId: input.run_id === undefined
      })
      const settings = yield* RuntimeConfig
      const studio = studioLink(settings, origin, [
        ["src", "agent"],
        ["playbook", playbook!.id],
        ["ledger", ""],
        ["run", run.run_id]
      ])
      return { ...publicRun(run), ...(studio === undefined ? {} : { studio }) }
    })
})
