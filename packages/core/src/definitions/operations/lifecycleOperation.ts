import { Effect, Schema } from "effect"
import { declare, type Operation } from "../../catalog/Operation.js"
import type { Caller } from "../../domain/Caller.js"
import type { Rejection } from "../../domain/Rejection.js"
import type { DraftFact } from "../../ledger/decide.js"
import { changeDefinition, noSuchDefinition } from "../changeDefinition.js"
import { Definition, type DefinitionRecord } from "../DefinitionRecord.js"
import { DefinitionPath } from "../definitionFields.js"
import { withUsedBy } from "../withUsedBy.js"

/** What sets one lifecycle operation (pause, resume, retire, restore) apart from the others. */
export interface Lifecycle<I> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** The last segment of its route: `/definitions/{type}/{name}/<verb>`. */
  readonly verb: string
  /** Fields it takes beside the definition's type and name. */
  readonly fields: Schema.Struct.Fields
  readonly idempotent: boolean
  /** Words of what stands after it. */
  readonly said: (definition: DefinitionRecord) => string
  /** The facts it records given the definition as it stands; none when it changes nothing. */
  readonly decide: (
    definition: DefinitionRecord,
    input: I,
    caller: Caller
  ) => Effect.Effect<ReadonlyArray<DraftFact>, Rejection>
}

/** Declares one of the definition lifecycle operations, which share route shape, output and refusals. */
export const lifecycleOperation = <I extends { type: DefinitionRecord["type"]; name: string }>(
  lifecycle: Lifecycle<I>
): Operation<I, Definition> =>
  declare({
    name: lifecycle.name,
    title: lifecycle.title,
    description: lifecycle.description,
    tag: "definitions",
    kind: "command",
    scope: "playbook",
    route: { method: "POST", path: `/definitions/{type}/{name}/${lifecycle.verb}` },
    input: Schema.Struct({ ...DefinitionPath.fields, ...lifecycle.fields }) as unknown as Schema.Schema<I, any>,
    output: Definition,
    permission: "playbook:write",
    hints: { idempotent: lifecycle.idempotent },
    served: { http: true, mcp: ["root", "playbook", "directory"] },
    refusals: ["not_found", "conflict"],
    summarize: (definition) =>
      `The ${definition.type === "workflow" ? "workflow" : `${definition.type} function`} “${definition.name}” ${lifecycle.said(definition)}.`,
    handle: (input, { caller, org, playbook }) =>
      Effect.flatMap(
        changeDefinition({ org, playbook: playbook!.id, type: input.type, name: input.name, caller }, (current) =>
          current === undefined
            ? Effect.fail(noSuchDefinition({ playbook: playbook!.id, ...input }))
            : lifecycle.decide(current, input, caller)
        ),
        ({ definition }) => withUsedBy(org, playbook!.id, definition)
      )
  })
