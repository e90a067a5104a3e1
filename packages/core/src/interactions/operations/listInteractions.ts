import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { DefinitionType } from "../../definitions/DefinitionType.js"
import { DefinitionName } from "../../definitions/definitionFields.js"
import { defaultLimit, PageCursor, PageLimit, pageFields } from "../../paging/pageFields.js"
import { pageOfView } from "../../paging/pageOfView.js"
import { Interaction } from "../Interaction.js"
import { interactionsPartition, interactionsView } from "../interactionsProjection.js"

/** list_interactions's output: one page of open requests, newest first. */
export const InteractionPage = Schema.Struct({ interactions: Schema.Array(Interaction), ...pageFields }).annotations({
  identifier: "InteractionPage"
})

/** list_interactions: the playbook's open requests, newest first, filtered and paged. */
export const listInteractions = declare({
  name: "list_interactions",
  title: "List open requests",
  description:
    "List the playbook's open requests, newest first: each interaction function's run that waits for an answer, with its party, message, answer_schema, expiry and standing. Answer one with answer_interaction; an answered request leaves the list. Filter by to, type and function. Each request may carry an answer schema of up to 64 KiB, so a smaller limit keeps a page smaller.",
  tag: "interactions",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/interactions" },
  input: Schema.Struct({
    to: Schema.optional(Schema.String.annotations({ description: "Only the requests to this party." })),
    type: Schema.optional(DefinitionType.annotations({ description: "Only the requests of functions of this type." })),
    function: Schema.optional(
      DefinitionName.annotations({ description: "Only the requests of functions of this name." })
    ),
    limit: Schema.optional(PageLimit),
    cursor: Schema.optional(PageCursor)
  }),
  output: InteractionPage,
  permission: "playbook:read",
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  summarize: ({ interactions, has_more }) =>
    `Found ${interactions.length} open request${interactions.length === 1 ? "" : "s"} on this page${has_more ? "; more follow from next_cursor" : ""}.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const filtered = input.to !== undefined || input.type !== undefined || input.function !== undefined
      const page = yield* pageOfView<Interaction>({
        view: interactionsView,
        partition: interactionsPartition(org, playbook!.id),
        scope: `interactions:${org}/${playbook!.id}`,
        cursor: input.cursor,
        limit: input.limit ?? defaultLimit,
        keeps: filtered
          ? (request) =>
              (input.to === undefined || request.to === input.to) &&
              (input.type === undefined || request.type === input.type) &&
              (input.function === undefined || request.function === input.function)
          : undefined
      })
      return { interactions: page.items, has_more: page.has_more, next_cursor: page.next_cursor }
    })
})
