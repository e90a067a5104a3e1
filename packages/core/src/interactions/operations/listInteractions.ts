import { Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { DefinitionType } from "../../definitions/DefinitionType.js"
import { DefinitionName } from "../../definitions/definitionFields.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { decodeCursor, encodeCursor } from "../../paging/cursor.js"
import { defaultLimit, PageCursor, PageLimit, pageFields } from "../../paging/pageFields.js"
import { Views } from "../../ports/Views.js"
import { Interaction } from "../Interaction.js"
import { interactionsPartition, interactionsView } from "../interactionsProjection.js"

/** list_interactions's output: one page of open requests, newest first. */
export const InteractionPage = Schema.Struct({ interactions: Schema.Array(Interaction), ...pageFields }).annotations({
  identifier: "InteractionPage"
})

/** How many requests a page looks at before it stops, with filters. */
const examinedBound = 1000

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
      const scope = `interactions:${org}/${playbook!.id}`
      const after =
        input.cursor === undefined ? undefined : decodeCursor<{ sort: string; id: string }>(scope, input.cursor)
      if (after !== undefined && Either.isLeft(after)) return yield* Effect.fail(after.left)
      const limit = input.limit ?? defaultLimit
      const views = yield* Views
      const filtered = input.to !== undefined || input.type !== undefined || input.function !== undefined
      const docs = yield* storeToRejection(
        views.list(interactionsView, interactionsPartition(org, playbook!.id), {
          direction: "descending",
          limit: (filtered ? examinedBound : limit) + 1,
          ...(after === undefined ? {} : { after: after.right })
        })
      )
      const keeps = (request: Interaction) =>
        (input.to === undefined || request.to === input.to) &&
        (input.type === undefined || request.type === input.type) &&
        (input.function === undefined || request.function === input.function)
      const interactions: Array<Interaction> = []
      let examined = 0
      for (const doc of docs.slice(0, examinedBound)) {
        if (interactions.length === limit) break
        examined++
        if (keeps(doc.data as Interaction)) interactions.push(doc.data as Interaction)
      }
      const hasMore = examined < docs.length
      const last = docs[examined - 1]
      return {
        interactions,
        has_more: hasMore,
        next_cursor: hasMore && last !== undefined ? encodeCursor(scope, { sort: last.sort, id: last.id }) : null
      }
    })
})
