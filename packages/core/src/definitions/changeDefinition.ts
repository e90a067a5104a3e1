import { Effect } from "effect"
import type { Caller } from "../domain/Caller.js"
import { conflict, notFound, type Rejection } from "../domain/Rejection.js"
import { type DraftFact, runDecider } from "../ledger/decide.js"
import type { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import type { DefinitionRecord } from "./DefinitionRecord.js"
import type { DefinitionType } from "./DefinitionType.js"
import { definitionStream } from "./definitionFacts.js"
import { foldDefinition } from "./foldDefinition.js"

/** Where a definition lives and who changes it. */
export interface DefinitionTarget {
  readonly org: string
  readonly playbook: string
  readonly type: DefinitionType
  readonly name: string
  readonly caller: Caller
}

/** The `not_found` of a definition the playbook does not have. */
export const noSuchDefinition = (target: Pick<DefinitionTarget, "playbook" | "type" | "name">): Rejection =>
  notFound(`The playbook ${target.playbook} has no ${target.type} definition named ${target.name}.`)

/** The `conflict` of a change to a retired definition. */
export const definitionRetired = (definition: DefinitionRecord, act: string): Rejection =>
  conflict(
    `The ${definition.type} definition ${definition.name} is retired, so it cannot be ${act}; restore it with restore_definition first.`,
    "retired"
  )

/**
 * Changes a definition through its stream: decides the facts from the definition as it stands (undefined when the
 * playbook has none) and returns it after them. Every fact names the definition and the version it is about.
 */
export const changeDefinition = (
  target: DefinitionTarget,
  decide: (current: DefinitionRecord | undefined) => Effect.Effect<ReadonlyArray<DraftFact>, Rejection>
): Effect.Effect<{ definition: DefinitionRecord; changed: boolean }, Rejection, Ledger | Ids> =>
  Effect.gen(function* () {
    const { state, facts } = yield* runDecider<DefinitionRecord | undefined, Rejection, never>({
      stream: definitionStream(target.org, target.playbook, target.type, target.name),
      initial: undefined,
      fold: foldDefinition,
      decide: (current) =>
        Effect.map(decide(current), (drafts) =>
          drafts.map((draft) => ({
            ...draft,
            metadata: {
              definition: {
                type: target.type,
                name: target.name,
                version: (draft.data as { version?: number }).version ?? current?.version ?? 1
              },
              ...draft.metadata
            }
          }))
        ),
      by: target.caller.id,
      what: `the ${target.type} definition ${target.name}`
    })
    if (state === undefined) return yield* Effect.fail(noSuchDefinition(target))
    return { definition: state, changed: facts.length > 0 }
  })
