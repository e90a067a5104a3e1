import { Effect } from "effect"
import type { DefinitionRecord } from "../../definitions/DefinitionRecord.js"
import { definitionStream } from "../../definitions/definitionFacts.js"
import { foldDefinition } from "../../definitions/foldDefinition.js"
import { readDefinition } from "../../definitions/readDefinition.js"
import { Caller } from "../../domain/Caller.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { Ledger } from "../../ports/Ledger.js"
import { performRun } from "../../runs/performRun.js"
import type { WorkflowTriggers } from "./WorkflowTriggers.js"

/** A triggered start: the trigger, the version it runs, its derived run id, input, depth and cause. */
export interface TriggeredStart {
  readonly kind: "event" | "cron" | "every"
  readonly reference: string
  readonly version: number
  readonly runId: string
  readonly input: unknown
  readonly depth: number
  readonly cause: string
}

/** How a triggered start went: the run started (or had started), or a refusal for good or for now. */
export type StartOutcome =
  | { readonly _tag: "Started" }
  | {
      readonly _tag: "Refused"
      readonly forGood: boolean
      readonly reason: string
      readonly kind?: string
      readonly because?: string
    }

/** The caller a triggered run acts as: the playbook itself, with read/write on it only (workflow-format.md §12.4). */
export const playbookCaller = (org: string, playbook: string): Caller =>
  new Caller({
    id: `playbook:${playbook}`,
    name: playbook,
    kind: "key",
    org,
    permissions: ["playbook:read", "playbook:write"],
    playbooks: [playbook]
  })

/** The workflow as it stood at a version: the current record, or its stream folded up to that version. */
const definitionAt = (state: WorkflowTriggers, version: number) =>
  Effect.gen(function* () {
    const current = yield* readDefinition(state.org, state.playbook, "workflow", state.name)
    if (current.version === version) return current
    const facts = yield* storeToRejection(
      Effect.flatMap(Ledger, (ledger) =>
        ledger.readStream(definitionStream(state.org, state.playbook, "workflow", state.name))
      )
    )
    let record: DefinitionRecord | undefined
    for (const fact of facts) {
      record = foldDefinition(record, fact)
      if (record?.version === version) return { ...record, status: current.status }
    }
    return current
  })

/**
 * Starts a triggered run through `performRun` (workflow-format.md §12.4): acting as the playbook, for the person who
 * saved the version where that was a person, with `trigger` and `depth` in its metadata and caused by the event's
 * record or the schedule's activation. A run id already started answers as that run stands, so a start seen by two
 * instances or taken up again starts once. A rejection the run ended with counts as started.
 */
export const startTriggeredRun = (state: WorkflowTriggers, start: TriggeredStart) =>
  Effect.gen(function* () {
    const definition = yield* definitionAt(state, start.version)
    if (definition.status !== "active")
      return {
        _tag: "Refused",
        forGood: true,
        reason: `the workflow is ${definition.status}`,
        kind: definition.status
      } as StartOutcome
    yield* performRun({
      org: state.org,
      playbook: state.playbook,
      definition,
      input: start.input,
      runId: start.runId,
      caller: playbookCaller(state.org, state.playbook),
      metadata: {
        trigger: { kind: start.kind, reference: start.reference },
        depth: start.depth,
        causation_id: start.cause,
        ...(state.acts_for === undefined ? {} : { acts_for: state.acts_for })
      }
    })
    return { _tag: "Started" } as StartOutcome
  }).pipe(
    Effect.catchTag("Rejection", (rejection) =>
      Effect.flatMap(Ledger, (ledger) =>
        Effect.map(
          Effect.orElseSucceed(
            ledger.streamVersion(`playbook/${state.org}/${state.playbook}/runs/${start.runId}`),
            () => 0
          ),
          (recorded): StartOutcome =>
            recorded > 0
              ? { _tag: "Started" }
              : {
                  _tag: "Refused",
                  forGood: rejection.reason !== "unavailable",
                  reason: rejection.detail,
                  ...(rejection.kind === undefined ? {} : { kind: rejection.kind }),
                  ...(rejection.because === undefined ? {} : { because: rejection.because })
                }
        )
      )
    )
  )
