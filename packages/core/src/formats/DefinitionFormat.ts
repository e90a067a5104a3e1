import { Context, type Effect, type Either, type Option } from "effect"
import type { DefinitionType } from "../definitions/DefinitionType.js"
import type { DefinitionUse } from "../definitions/DefinitionUse.js"
import type { Fact } from "../domain/Fact.js"
import type { Rejection } from "../domain/Rejection.js"
import type { ContentStore } from "../ports/ContentStore.js"
import type { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import type { Views } from "../ports/Views.js"
import type { TriggerView } from "../workflow/triggers/TriggerView.js"

/**
 * One problem a source document has, reported under `/source` as `Line L, column C: at <pointer>: <message>`
 * (function-formats.md §1.3). Line and column are 1-based, columns in Unicode code points.
 */
export interface SourceIssue {
  readonly line: number
  readonly column: number
  /** A JSON pointer into the front matter as parsed, or `/body` for the body. */
  readonly pointer: string
  readonly message: string
}

/** Where a save happens: the org and the playbook the definition belongs to (a lookup asks its server for it). */
export interface SaveWhere {
  readonly org: string
  readonly playbook: string
}

/** What a format reads from a source document: the parts a definition shows and a run needs. */
export interface ReadDocument {
  readonly description?: string
  /** The document's `input.schema`, as a JSON Schema. */
  readonly inputSchema?: unknown
  /** The document's `output.schema` (or the schema of its `output.shape`). */
  readonly outputSchema?: unknown
  /** The output shape the document names, shown as `details.shape`. */
  readonly shape?: "table" | "series" | "asset"
  /** The `page` key, kept as written until pages are designed (decision F10). */
  readonly page?: unknown
  /** A workflow's triggers, in the order its `schedule` names them (workflow-format.md §12.6). */
  readonly triggers?: ReadonlyArray<TriggerView>
  /** Non-blocking findings, each as `Line L, column C: at <pointer>: <message>`. */
  readonly warnings: ReadonlyArray<string>
  /** Whether a run finishes after the request that starts it (workflows, interactions that ask a person). */
  readonly finishesLater: boolean
  /** Whether a run may call tools (lookup, reasoning with tools, interaction with call). */
  readonly callsTools: boolean
  /** The mark of the tool the document calls, as the save saw it; set by `foundAtSave`, never by `read`. */
  readonly toolMark?: ToolMarkSeen
  /** The definitions of the playbook the document calls or reads the runs of (ADR 0015). */
  readonly uses?: ReadonlyArray<DefinitionUse>
}

/** The mark a save saw on the tool a version calls, as the version records it (decision F5). */
export interface ToolMarkSeen {
  readonly server: string
  readonly tool: string
  readonly mark: string
  readonly marked_by: string
}

/** What a version records of what its save asked outside. */
export interface SaveFindings {
  readonly toolMark?: ToolMarkSeen
}

/** A run a format carries out: the version's source, the input, and the run's recorded start time. */
export interface FormatRun {
  readonly runId: string
  /**
   * The playbook the run belongs to, and the views a format may read (never write: what a run waits on is
   * recorded from its `Started` ending); absent when a format is run alone, as in its own tests.
   */
  readonly playbook?: { readonly org: string; readonly id: string; readonly views: Views["Type"] }
  readonly source: string
  readonly version: number
  /** The definition's name (an interaction's `function` variable); absent when a format is run alone. */
  readonly name?: string
  readonly input: unknown
  /** The run's start in milliseconds since the epoch: the clock a program sees. */
  readonly startedAt: number
  /**
   * Records facts on the run's stream while it goes on, each caused by its start (a reasoning run's model and tool
   * calls); absent when a format is run alone.
   */
  readonly record?: (facts: ReadonlyArray<FormatFact>) => Effect.Effect<void, Rejection>
  /** Keeps texts in the playbook's content store by their SHA-256, before a fact names them; absent when run alone. */
  readonly keep?: (texts: ReadonlyArray<string>) => Effect.Effect<void, Rejection>
  /**
   * Completes when someone asks to cancel the run (`cancel_run`), never otherwise; a format whose runs may be
   * cancelled while they go on races its work against it (ADR 0329). Absent when a format is run alone.
   */
  readonly cancelled?: Effect.Effect<CancelAsked>
  /**
   * Present when the run was started before and is taken up again (a reasoning run, decision F3): the attempt's
   * number and the facts the run recorded since its start, which the format goes on from. `startedAt` stays the
   * first start's.
   */
  readonly resumed?: { readonly attempt: number; readonly facts: ReadonlyArray<FormatFact> }
  /** Reads back a text kept in the playbook's content store by its SHA-256; absent when a format is run alone. */
  readonly recall?: (sha256: string) => Effect.Effect<Option.Option<string>>
}

/** A cancel someone asked of a run: its kind (`requested`), who asked, and the reason they gave. */
export interface CancelAsked {
  readonly kind: string
  readonly by: string
  readonly reason?: string
}

/** A fact a format records on the run's stream; the runtime gives it its id, time and metadata. */
export interface FormatFact {
  readonly type: string
  readonly data: unknown
}

/**
 * Facts a run's start appends to another stream in the same append (ADR 0189), at the version the format read
 * there: an interaction's claim on one of the playbook's open-request slots (ADR 0190). A stream moved since makes
 * the start decide again.
 */
export interface FormatAlongside {
  readonly stream: string
  readonly expected: number
  readonly facts: ReadonlyArray<FormatFact>
}

/**
 * What a run that goes on after `run_started` does within the request that started it, with the services of the
 * runtime: a workflow applies its `started` input and drives the run up to its first wait (it may end there).
 */
export type GoesOn = (started: Fact) => Effect.Effect<void, never, Ledger | Views | Ids | Formats | ContentStore>

/**
 * How a run a format carried out ended, or that it goes on after the request: `Started`, with the facts that
 * say what it waits on (an interaction's request), recorded right after `run_started`, and what the run does next
 * within the request (`goesOn`), after which the run is answered as it then stands.
 */
export type FormatEnding =
  | { readonly _tag: "Succeeded"; readonly output: unknown; readonly record: unknown }
  | { readonly _tag: "Rejected"; readonly rejection: Rejection; readonly record?: unknown }
  | {
      readonly _tag: "Started"
      readonly facts?: ReadonlyArray<FormatFact>
      readonly alongside?: ReadonlyArray<FormatAlongside>
      readonly goesOn?: GoesOn
    }

/**
 * A definition type's format: how its documents are read and checked at save, and how its runs are carried out.
 * `read` is pure and runs at every save and every run; `checkAtSave` runs only at save (the computation checker).
 */
export interface DefinitionFormat {
  readonly type: DefinitionType
  readonly read: (source: string) => Either.Either<ReadDocument, ReadonlyArray<SourceIssue>>
  /** Further issues found at save; `unavailable` when the checker cannot serve. */
  readonly checkAtSave: (
    source: string,
    document: ReadDocument,
    where?: SaveWhere
  ) => Effect.Effect<ReadonlyArray<SourceIssue>, Rejection>
  /**
   * What a version records of what its save asked, once the checks found no issue: a lookup's tool and the mark it
   * had (decision F5). Absent for types whose save asks nothing outside.
   */
  readonly foundAtSave?: (source: string, where?: SaveWhere) => Effect.Effect<SaveFindings, Rejection>
  /** Carries out a run whose input passed the runtime's size and depth bounds; checks the input schema itself. */
  readonly run: (run: FormatRun) => Effect.Effect<FormatEnding>
  /**
   * Whether a run only decides what its start records and does no work a crash could lose (an interaction's
   * request): the runtime then runs it before recording the start and appends `run_started` with its ending, or
   * with its `Started` facts and `alongside`, in one append (ADR 0189). `startedAt` is still the start's time.
   * A function of the source when only some documents of the type do (an interaction's `call` records its tool
   * call after its start, ADR 0193).
   */
  readonly recordsWithStart?: boolean | ((source: string) => boolean)
}

/** Whether a run of this source is decided before its start is recorded (`recordsWithStart`). */
export const recordsWithStartOf = (format: DefinitionFormat, source: string): boolean =>
  typeof format.recordsWithStart === "function" ? format.recordsWithStart(source) : format.recordsWithStart === true

/** The formats this runtime implements, by type; a type without one is refused at save as `unavailable`. */
export class Formats extends Context.Tag("@runledger/core/Formats")<
  Formats,
  ReadonlyMap<DefinitionType, DefinitionFormat>
>() {}

/** The words of one issue under `/source`. */
export const sourceIssueWords = (issue: SourceIssue): string =>
  `Line ${issue.line}, column ${issue.column}: at ${issue.pointer}: ${issue.message}`
