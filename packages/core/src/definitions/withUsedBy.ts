import { Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { readPartition } from "../ledger/readPartition.js"
import type { Views } from "../ports/Views.js"
import type { DefinitionRecord } from "./DefinitionRecord.js"
import type { DefinitionType } from "./DefinitionType.js"
import type { DefinitionUse } from "./DefinitionUse.js"
import { definitionsPartition, definitionsView } from "./definitionsProjection.js"

/** The types whose definitions use others: a workflow calls them, a lookup reads their runs. */
const usingTypes: ReadonlyArray<DefinitionType> = ["workflow", "lookup"]

/**
 * A definition with its `used_by`, read from the playbook each time it is returned: the active or paused
 * definitions whose current version calls it or reads its runs, each with its type, name and relation, and a
 * workflow's calling steps; left out when none does (ADR 0015).
 */
export const withUsedBy = <D extends DefinitionRecord>(
  org: string,
  playbook: string,
  definition: D
): Effect.Effect<D & { readonly used_by?: ReadonlyArray<DefinitionUse> }, Rejection, Views> =>
  Effect.gen(function* () {
    const usedBy: Array<DefinitionUse> = []
    for (const type of usingTypes)
      for (const doc of yield* readPartition(definitionsView, definitionsPartition(org, playbook, type))) {
        const user = doc.data as DefinitionRecord
        if (user.status === "retired") continue
        const use = user.uses?.find(
          (candidate) => candidate.type === definition.type && candidate.name === definition.name
        )
        if (use !== undefined)
          usedBy.push({
            type: user.type,
            name: user.name,
            relation: use.relation,
            ...(use.steps === undefined ? {} : { steps: use.steps })
          })
      }
    return usedBy.length === 0 ? definition : { ...definition, used_by: usedBy }
  })
