import { Effect, Option } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import { noSuchDefinition } from "./changeDefinition.js"
import type { DefinitionRecord } from "./DefinitionRecord.js"
import type { DefinitionType } from "./DefinitionType.js"
import { definitionsPartition, definitionsView } from "./definitionsProjection.js"

/** Reads a definition as it stands from the definitions view, or `not_found`. */
export const readDefinition = (
  org: string,
  playbook: string,
  type: DefinitionType,
  name: string
): Effect.Effect<DefinitionRecord, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const found = yield* storeToRejection(
      views.get({ view: definitionsView, partition: definitionsPartition(org, playbook, type), id: name })
    )
    if (Option.isNone(found)) return yield* Effect.fail(noSuchDefinition({ playbook, type, name }))
    return found.value.data as DefinitionRecord
  })
