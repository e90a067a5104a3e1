import { Effect } from "effect"
import type { DefinitionRecord } from "../definitions/DefinitionRecord.js"
import { formatOf } from "../definitions/readSource.js"
import type { Caller } from "../domain/Caller.js"
import type { NewFactMetadata } from "../domain/Fact.js"
import { conflict, type Rejection, reject } from "../domain/Rejection.js"
import { type Formats, recordsWithStartOf } from "../formats/DefinitionFormat.js"
import { placeFacts } from "../ledger/decide.js"
import { storeToRejection } from "../ledger/unavailable.js"
import type { ContentStore } from "../ports/ContentStore.js"
import type { Ids } from "../ports/Ids.js"
import { Ledger } from "../ports/Ledger.js"
import type { Views } from "../ports/Views.js"
import { canonicalDigest } from "./canonicalDigest.js"
import { foldRun } from "./foldRun.js"
import type { RunState } from "./RunRecord.js"
import { readRun } from "./readRun.js"
import { resumeRun } from "./resumeRun.js"
import { rejectionOfRun, retryDecision } from "./retryDecision.js"
import { runStream } from "./runFacts.js"
import { appendsOfEnding, carryOut as carryOutRun, noAppends, startDraft } from "./runStart.js"
import { goingHere, waitedForRunHere } from "./runsGoingHere.js"

/** A run to perform: the definition as it stands, the input, the run id and who asked. */
export interface RunCommand {
  readonly org: string
  readonly playbook: string
  readonly definition: DefinitionRecord
  readonly input: unknown
  readonly runId: string
  readonly caller: Caller
  /** What the run's facts carry besides the run and its definition: a workflow call's `called_by`, `call_depth`,
   * `acts_for` and cause, a trigger's `trigger` and `depth`. */
  readonly metadata?: Partial<NewFactMetadata>
  /**
   * Whether the run id was made for this command just now, so that no stream can hold it yet: the first round takes
   * the run's stream as empty without reading it (ADR 0416; an append that finds it otherwise reads it, as any conflict
   * does).
   */
  readonly freshId?: boolean
}

/** A run's stream as a new run id finds it: no facts, no run, version 0. */
const emptyRun = { facts: [], run: undefined, version: 0 } as const

/** How often a run is decided again when another request under its id moved it at the same moment. */
const attempts = 5

/**
 * How often a start is decided again when only another stream of its append moved: another start claimed the
 * playbook's request slot it read (ADR 0190). Each such loss means another start landed, so these rounds do not
 * count against `attempts`.
 */
const slotRounds = 100

/** The facts of a run's stream, and the run they fold into. */
const loadRun = (stream: string) =>
  Effect.map(storeToRejection(Effect.flatMap(Ledger, (ledger) => ledger.readStream(stream))), (facts) => ({
    facts,
    run: facts.reduce(foldRun, undefined),
    version: facts.length === 0 ? 0 : facts[facts.length - 1].metadata.position
  }))

/**
 * Performs a run under its id as "Retrying under a run id" says: a new id starts a run; an id that names a run of
 * another definition or input is `conflict`; otherwise the run's ending decides whether to answer it, refuse as it
 * ended, run a new attempt, or resume a started reasoning run. A run that ends within the request is carried out
 * here and its ending recorded. Returns the run as it stands, or fails with the rejection it ended with.
 */
export const performRun = (
  command: RunCommand
): Effect.Effect<RunState, Rejection, Ledger | Ids | Formats | Views | ContentStore> =>
  Effect.gen(function* () {
    const { definition, runId, caller } = command
    const stream = runStream(command.org, command.playbook, runId)
    const digest = canonicalDigest(command.input)
    const format = yield* formatOf(definition.type)
    const ledger = yield* Ledger
    let slotsLost = 0
    for (let round = 0; round < attempts; round++) {
      const { facts, run, version } = round === 0 && command.freshId === true ? emptyRun : yield* loadRun(stream)
      if (run !== undefined) {
        if (run.type !== definition.type || run.name !== definition.name)
          return yield* Effect.fail(
            conflict(`The run id ${runId} names a run of the ${run.type} definition ${run.name}; use a new run id.`)
          )
        if (run.input_sha256 !== digest)
          return yield* Effect.fail(conflict(`The run id ${runId} was used with another input; use a new run id.`))
        const decision = retryDecision(run, facts)
        if (decision._tag === "Answer") return run
        if (decision._tag === "Refuse") return yield* Effect.fail(decision.rejection)
        if (decision._tag === "Resume") {
          // A run going in this server is waited for, and answered as it ended (ADR 0343).
          if (yield* waitedForRunHere(stream)) {
            const { run: ended } = yield* loadRun(stream)
            if (ended === undefined || ended.status === "started") continue
            if (ended.status === "succeeded") return ended
            return yield* Effect.fail(rejectionOfRun(ended))
          }
          const resumed = yield* resumeRun(command, format, stream, run, facts, version)
          if (resumed === undefined) continue
          return resumed
        }
      }
      const draft = startDraft(command, digest, run)
      const [startFact] = yield* placeFacts([draft], caller.id)
      const following = { ...draft.metadata, first_started_at: run?.started_at ?? startFact.metadata.at }
      const carryOut = carryOutRun(command, format, stream, startFact, following)
      const early = recordsWithStartOf(format, definition.source) ? yield* carryOut : undefined
      const withStart =
        early === undefined
          ? noAppends
          : yield* appendsOfEnding(early, { ...following, causation_id: startFact.id }, caller.id)
      const appended = yield* storeToRejection(
        ledger.append([{ stream, expected: version, facts: [startFact, ...withStart.facts] }, ...withStart.alongside])
      ).pipe(
        Effect.map((result) => result.facts.filter((fact) => fact.metadata.stream === stream)),
        Effect.catchTag("VersionConflict", (error) => Effect.succeed(error.stream === stream ? undefined : null))
      )
      if (appended === undefined) continue
      if (appended === null) {
        if (++slotsLost < slotRounds) round--
        continue
      }
      const ending =
        early ??
        (yield* goingHere(
          stream,
          Effect.gen(function* () {
            const carried = yield* carryOut
            const later = yield* appendsOfEnding(carried, { ...following, causation_id: appended[0].id }, caller.id)
            if (later.facts.length > 0 || later.alongside.length > 0) {
              const recorded = yield* storeToRejection(
                ledger.append([{ stream, expected: "any", facts: later.facts }, ...later.alongside])
              ).pipe(Effect.catchTag("VersionConflict", (error) => Effect.die(error)))
              appended.push(...recorded.facts.filter((fact) => fact.metadata.stream === stream))
            }
            return carried
          })
        ))
      const final = appended.reduce(foldRun, run)!
      if (ending._tag === "Started") {
        if (ending.goesOn === undefined) return final
        yield* ending.goesOn(appended[0])
        // The runs view folds the same facts as `loadRun`: one document, however many inputs the drive recorded.
        const standing = yield* readRun(command.org, command.playbook, runId).pipe(
          Effect.catchIf(
            (rejection) => rejection.reason === "not_found",
            () => Effect.succeed(undefined)
          )
        )
        if (standing === undefined || standing.status === "started" || standing.status === "succeeded")
          return standing ?? final
        return yield* Effect.fail(rejectionOfRun(standing))
      }
      if (final.status !== "succeeded") return yield* Effect.fail(rejectionOfRun(final))
      return final
    }
    if (slotsLost >= slotRounds)
      return yield* Effect.fail(
        reject("unavailable", "Many runs of the playbook are opening requests at once; send the run again.", {
          retryAfter: 1
        })
      )
    return yield* Effect.fail(
      conflict(`Another request under the run id ${runId} moved the run at the same moment; send it again.`)
    )
  })
