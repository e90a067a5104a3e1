import { type Cause, Clock, Effect } from "effect"
import type { Fact, NewFact, NewFactMetadata } from "../domain/Fact.js"
import { reject } from "../domain/Rejection.js"
import { jsonBytes } from "../domain/utf8Bytes.js"
import type { DefinitionFormat, FormatEnding } from "../formats/DefinitionFormat.js"
import { type DraftFact, placeFacts } from "../ledger/decide.js"
import type { ContentStore } from "../ports/ContentStore.js"
import { Ids } from "../ports/Ids.js"
import type { Ledger, StreamAppend } from "../ports/Ledger.js"
import { Views } from "../ports/Views.js"
import { cancelAsked } from "./cancelAsked.js"
import type { RunCommand } from "./performRun.js"
import type { RunState } from "./RunRecord.js"
import type { RunStarted } from "./runFacts.js"
import { recallContent, runRecorder } from "./runRecorder.js"

/** The most bytes a run's output and record may hold together as JSON. */
export const outputAndRecordBound = 1_048_576

/**
 * The `run_started` of a new attempt under `command`: the input and its digest, who started the first attempt,
 * the attempt's number after `run`'s, and the metadata every fact of the attempt carries.
 */
export const startDraft = (command: RunCommand, digest: string, run: RunState | undefined) => {
  const { definition } = command
  const data: RunStarted = {
    input: command.input,
    input_sha256: digest,
    calls_tools: definition.calls_tools,
    finishes_later: definition.finishes_later,
    started_by: run?.started_by ?? command.caller.reference,
    attempt: (run?.attempts ?? 0) + 1,
    ...(definition.details?.shape === undefined ? {} : { output_shape: definition.details.shape })
  }
  const metadata: Partial<NewFactMetadata> = {
    run_id: command.runId,
    definition: { type: definition.type, name: definition.name, version: definition.version },
    correlation_id: command.runId,
    ...(run === undefined ? {} : { first_started_at: run.started_at }),
    ...command.metadata
  }
  return { type: "run_started", data, metadata } satisfies DraftFact
}

/** A started run taken up again: its attempt, its first start's time and the facts recorded since that start. */
export interface Resumption {
  readonly attempt: number
  readonly startedAt: string
  readonly facts: ReadonlyArray<Fact>
}

/**
 * Carries out the attempt `startFact` began with the run's format: the facts it records while it goes on are
 * caused by the start and carry `following`. A run `resumed` goes on from what it recorded, `startFact` being its
 * `attempt_resumed`. A defect inside the format becomes the run's failure.
 */
export const carryOut = (
  command: RunCommand,
  format: DefinitionFormat,
  stream: string,
  startFact: NewFact,
  following: Partial<NewFactMetadata>,
  resumed?: Resumption
): Effect.Effect<FormatEnding, never, Ledger | Ids | ContentStore | Views> =>
  Effect.gen(function* () {
    const recorder = yield* runRecorder({
      org: command.org,
      playbook: command.playbook,
      stream,
      metadata: { ...following, causation_id: startFact.id },
      by: command.caller.id
    })
    return yield* format.run({
      runId: command.runId,
      name: command.definition.name,
      playbook: { org: command.org, id: command.playbook, views: yield* Views },
      source: command.definition.source,
      version: command.definition.version,
      input: command.input,
      startedAt: Date.parse(resumed?.startedAt ?? startFact.metadata.at),
      ...recorder,
      recall: yield* recallContent(command.org, command.playbook),
      cancelled: yield* cancelAsked(stream),
      ...(resumed === undefined
        ? {}
        : {
            resumed: {
              attempt: resumed.attempt,
              facts: resumed.facts.map((fact) => ({ type: fact.type, data: fact.data }))
            }
          })
    })
  }).pipe(
    Effect.flatMap(withIncident),
    Effect.catchAllCause((cause) => recordFailure(cause))
  )

/** The ending fact of a format's ending, holding the output and record to the shared bound. */
const endingDraft = (ending: Exclude<FormatEnding, { _tag: "Started" }>) => {
  if (ending._tag === "Succeeded") {
    const bytes = jsonBytes({ output: ending.output, record: ending.record })
    if (bytes <= outputAndRecordBound + 20)
      return { type: "run_succeeded", data: { output: ending.output, record: ending.record } }
    return {
      type: "run_rejected",
      data: {
        reason: "conflict",
        kind: "unworkable",
        detail: "The run's output and record together hold more than 1 MiB as JSON."
      }
    }
  }
  const { rejection, record } = ending
  if (rejection.reason === "internal")
    return { type: "run_failed", data: { incident: rejection.extras?.incident, detail: rejection.detail } }
  return {
    type: "run_rejected",
    data: {
      reason: rejection.reason,
      detail: rejection.detail,
      ...(rejection.kind === undefined ? {} : { kind: rejection.kind }),
      ...(rejection.because === undefined ? {} : { because: rejection.because }),
      ...(rejection.errors === undefined
        ? {}
        : { issues: rejection.errors.map(({ pointer, detail }) => ({ pointer, detail })) }),
      ...(record === undefined ? {} : { record })
    }
  }
}

/** What an ending records: facts on the run's stream, and appends to other streams (`alongside`). */
export interface EndingAppends {
  readonly facts: ReadonlyArray<NewFact>
  readonly alongside: ReadonlyArray<StreamAppend>
}

/** No facts to record beside a run's start. */
export const noAppends: EndingAppends = { facts: [], alongside: [] }

/**
 * The facts a format's ending records on the run's stream (the `Started` facts, or the ending fact) and on other
 * streams (`alongside`, each at the version the format read), placed with the run's metadata.
 */
export const appendsOfEnding = (
  ending: FormatEnding,
  metadata: Partial<NewFactMetadata>,
  by: string
): Effect.Effect<EndingAppends, never, Ids> =>
  Effect.gen(function* () {
    if (ending._tag !== "Started")
      return { facts: yield* placeFacts([{ ...endingDraft(ending), metadata }], by), alongside: [] }
    const facts = yield* placeFacts(
      (ending.facts ?? []).map((fact) => ({ ...fact, metadata })),
      by
    )
    const alongside: Array<StreamAppend> = []
    for (const other of ending.alongside ?? [])
      alongside.push({
        stream: other.stream,
        expected: other.expected,
        facts: yield* placeFacts(
          other.facts.map((fact) => ({ ...fact, metadata })),
          by
        )
      })
    return { facts, alongside }
  })

/** A new incident id, logged once with what broke: the reference a failed run's 500 and its `run_failed` carry. */
const newIncident = (what: Cause.Cause<unknown> | string): Effect.Effect<string, never, Ids> =>
  Effect.gen(function* () {
    const ids = yield* Ids
    const incident = yield* ids.uuidv7(yield* Clock.currentTimeMillis)
    yield* Effect.logError(`incident ${incident}: a run failed inside the runtime`, what)
    return incident
  })

/** A defect inside a format becomes the run's failure, logged once with its incident id. */
const recordFailure = (cause: Cause.Cause<unknown>): Effect.Effect<FormatEnding, never, Ids> =>
  Effect.map(
    newIncident(cause),
    (incident) =>
      ({
        _tag: "Rejected",
        rejection: reject("internal", `The runtime broke while it ran this run; the incident is ${incident}.`, {
          extras: { incident }
        })
      }) as const
  )

/**
 * A format's ending that says the runtime broke (`internal`, e.g. the sandbox broke) without an incident gets one,
 * logged with its detail (ADR 0413): every failed run names the log entry of its failure.
 */
const withIncident = (ending: FormatEnding): Effect.Effect<FormatEnding, never, Ids> => {
  if (ending._tag !== "Rejected" || ending.rejection.reason !== "internal") return Effect.succeed(ending)
  const { rejection } = ending
  if (typeof rejection.extras?.incident === "string") return Effect.succeed(ending)
  return Effect.map(newIncident(rejection.detail), (incident) => ({
    ...ending,
    rejection: reject("internal", rejection.detail, { extras: { ...rejection.extras, incident } })
  }))
}
