import { Clock, Effect, Option } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import type { DefinitionRecord } from "../definitions/DefinitionRecord.js"
import { type DefinitionVersionData, definitionStream } from "../definitions/definitionFacts.js"
import type { Fact, NewFactMetadata } from "../domain/Fact.js"
import { conflict, type Rejection, reject } from "../domain/Rejection.js"
import type { DefinitionFormat } from "../formats/DefinitionFormat.js"
import { placeFacts } from "../ledger/decide.js"
import { storeToRejection } from "../ledger/unavailable.js"
import type { ContentStore } from "../ports/ContentStore.js"
import type { Ids } from "../ports/Ids.js"
import { Ledger } from "../ports/Ledger.js"
import type { Views } from "../ports/Views.js"
import { foldRun } from "./foldRun.js"
import type { RunCommand } from "./performRun.js"
import type { RunState } from "./RunRecord.js"
import { rejectionOfRun } from "./retryDecision.js"
import type { AttemptResumed } from "./runFacts.js"
import { appendsOfEnding, carryOut } from "./runStart.js"
import { goingHere } from "./runsGoingHere.js"

/** The longest gap between two facts of a live reasoning run, unless the settings say (decision F3). */
const defaultLongestGapMs = 600_000

/** The version of the definition a run started with: the one `command` holds, or read from its stream. */
const definitionAt = (command: RunCommand, version: number): Effect.Effect<DefinitionRecord, Rejection, Ledger> =>
  Effect.gen(function* () {
    const { definition } = command
    if (definition.version === version) return definition
    const ledger = yield* Ledger
    const facts = yield* storeToRejection(
      ledger.readStream(definitionStream(command.org, command.playbook, definition.type, definition.name))
    )
    const saved = facts
      .filter((fact) => fact.type === "definition_created" || fact.type === "definition_updated")
      .map((fact) => fact.data as DefinitionVersionData)
      .find((data) => data.version === version)
    if (saved === undefined)
      return yield* Effect.fail(
        reject("internal", `The version ${version} the run started with is not among its definition's versions.`)
      )
    return { ...definition, version, source: saved.source }
  })

/** The metadata of the run's start that every fact of the run carries, less what each fact has of its own. */
const carriedMetadata = (start: Fact, firstStartedAt: string): Partial<NewFactMetadata> => {
  const {
    at: _at,
    by: _by,
    causation_id: _cause,
    stream: _s,
    position: _p,
    global_position: _g,
    ...kept
  } = start.metadata
  return { ...kept, first_started_at: firstStartedAt }
}

/**
 * Takes up a started reasoning run again (function-formats.md §2.9, decision F3, ADR 0330): while its last fact is
 * newer than the longest gap of a live run it is `conflict`, kind `taken` (it may be going on); otherwise
 * `attempt_resumed` is appended at the stream's version `from` (another request that moved it first makes this
 * round answer `undefined`, to decide again), with the attempt's number and that position, and the format goes on
 * from what the run recorded since its start, at the version it started with. Returns the run as it ended, or
 * fails with the rejection it ended with.
 */
export const resumeRun = (
  command: RunCommand,
  format: DefinitionFormat,
  stream: string,
  run: RunState,
  facts: ReadonlyArray<Fact>,
  from: number
): Effect.Effect<RunState | undefined, Rejection, Ledger | Ids | ContentStore | Views> =>
  Effect.gen(function* () {
    const settings = yield* Effect.serviceOption(RuntimeConfig)
    const gap = Option.getOrUndefined(settings)?.models?.longestGapMs ?? defaultLongestGapMs
    const last = facts[facts.length - 1]!
    if ((yield* Clock.currentTimeMillis) - Date.parse(last.metadata.at) < gap)
      return yield* Effect.fail(
        conflict(
          `The run ${run.run_id} is going on, or stopped moments ago: its last fact is ${last.metadata.at}; ask get_run for how it ends.`,
          "taken"
        )
      )
    const startIndex = facts.findLastIndex((fact) => fact.type === "run_started")
    const start = facts[startIndex]!
    const since = facts.slice(startIndex + 1)
    const attempt = run.attempts + 1
    const definition = yield* definitionAt(command, run.definition_version)
    const metadata = carriedMetadata(start, run.started_at)
    const [resumed] = yield* placeFacts(
      [
        {
          type: "attempt_resumed",
          data: { attempt, from } satisfies AttemptResumed,
          metadata: { ...metadata, causation_id: start.id }
        }
      ],
      command.caller.id
    )
    const ledger = yield* Ledger
    const appended = yield* storeToRejection(ledger.append([{ stream, expected: from, facts: [resumed!] }])).pipe(
      Effect.map((result) => [...result.facts]),
      Effect.catchTag("VersionConflict", () => Effect.succeed(undefined))
    )
    if (appended === undefined) return undefined
    yield* goingHere(
      stream,
      Effect.gen(function* () {
        const ending = yield* carryOut({ ...command, definition }, format, stream, resumed!, metadata, {
          attempt,
          startedAt: start.metadata.at,
          facts: since
        })
        const later = yield* appendsOfEnding(ending, { ...metadata, causation_id: resumed!.id }, command.caller.id)
        if (later.facts.length > 0) {
          const recorded = yield* storeToRejection(
            ledger.append([{ stream, expected: "any", facts: later.facts }])
          ).pipe(Effect.catchTag("VersionConflict", (error) => Effect.die(error)))
          appended.push(...recorded.facts)
        }
      })
    )
    const final = appended.reduce(foldRun, run)!
    if (final.status !== "succeeded") return yield* Effect.fail(rejectionOfRun(final))
    return final
  })
