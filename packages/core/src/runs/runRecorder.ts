import { Effect, Option } from "effect"
import type { NewFactMetadata } from "../domain/Fact.js"
import type { Rejection } from "../domain/Rejection.js"
import type { FormatFact } from "../formats/DefinitionFormat.js"
import { placeFacts } from "../ledger/decide.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { ContentStore } from "../ports/ContentStore.js"
import type { Ids } from "../ports/Ids.js"
import { Ledger } from "../ports/Ledger.js"
import { keepTexts } from "../tools/keepTexts.js"
import { contentOwner } from "../tools/toolCallFacts.js"

/** How a format records while a run goes on: facts on the run's stream, and texts in the playbook's content store. */
export interface RunRecorder {
  readonly record: (facts: ReadonlyArray<FormatFact>) => Effect.Effect<void, Rejection>
  readonly keep: (texts: ReadonlyArray<string>) => Effect.Effect<void, Rejection>
}

/**
 * The recorder of one stream (a run's, or a call made by hand): each fact placed with the metadata given, by the
 * caller, appended at the stream's end; each text kept under `<org>/<playbook>`.
 */
export const runRecorder = (where: {
  readonly org: string
  readonly playbook: string
  readonly stream: string
  readonly metadata: Partial<NewFactMetadata>
  readonly by: string
}): Effect.Effect<RunRecorder, never, Ledger | Ids | ContentStore> =>
  Effect.map(Effect.context<Ledger | Ids | ContentStore>(), (context) => ({
    record: (facts) =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const placed = yield* placeFacts(
          facts.map((fact) => ({ ...fact, metadata: where.metadata })),
          where.by
        )
        yield* storeToRejection(ledger.append([{ stream: where.stream, expected: "any", facts: placed }])).pipe(
          Effect.catchTag("VersionConflict", (error) => Effect.die(error))
        )
      }).pipe(Effect.provide(context)),
    keep: (texts) => keepTexts(contentOwner(where.org, where.playbook), texts).pipe(Effect.provide(context))
  }))

/** Reads back the texts a playbook's runs kept, by SHA-256; nothing when the store cannot say. */
export const recallContent = (
  org: string,
  playbook: string
): Effect.Effect<(sha256: string) => Effect.Effect<Option.Option<string>>, never, ContentStore> =>
  Effect.map(
    ContentStore,
    (content) => (sha256) =>
      content.read(contentOwner(org, playbook), sha256).pipe(Effect.orElseSucceed(() => Option.none<string>()))
  )
