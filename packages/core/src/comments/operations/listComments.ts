import { Effect, Either, Schema } from "effect"
import { invalidAt } from "../../domain/Rejection.js"
import { cursorRefused, decodeCursor, encodeCursor } from "../../paging/cursor.js"
import { PageCursor, pageFields } from "../../paging/pageFields.js"
import { addressFilter } from "../addressFilter.js"
import { Comment } from "../Comment.js"
import { addressText } from "../CommentAddress.js"
import { scopeOfCall } from "../CommentScope.js"
import { checkAddress } from "../checkAddress.js"
import { AddressText, CommentLimit, defaultCommentLimit } from "../commentFields.js"
import { commentsPartition } from "../commentsProjection.js"
import { type CommentPosition, readCommentPage } from "../readCommentPage.js"
import { withStudio } from "../withStudio.js"
import { declareInBoth } from "./declareInBoth.js"
import { PlaybookArgument, routedByPlaybook } from "./routedByPlaybook.js"

/** list_comments's input; over HTTP it comes in the query string. */
export const ListCommentsInput = Schema.Struct({
  address: Schema.optional(AddressText),
  under: Schema.optional(
    Schema.Boolean.annotations({
      description:
        "true keeps the comments on address and on what is under it: its parts; a run's events and result blocks; a definition's steps, or with a definition named without its version every version. false when left out."
    })
  ),
  open: Schema.optional(
    Schema.Boolean.annotations({
      description: "true keeps the open comments, false the resolved ones; true when left out."
    })
  ),
  limit: Schema.optional(CommentLimit),
  cursor: Schema.optional(PageCursor)
})

/** list_comments's output: one page of comments, newest first. */
export const CommentPage = Schema.Struct({ comments: Schema.Array(Comment), ...pageFields }).annotations({
  identifier: "CommentPage"
})

const listing = `Each comment carries its address, text, anchor, who made it, whether it is open and its studio link. Pages come one at a time: read on from the next_cursor of the page before, until it is null.`

const toolWords = `Read the open comments people made in Studio, newest first, or those on one address or under it: with playbook, that playbook's; without it, the organization's own, on the organization, its connections, members and pages of Settings. Call it when the person says they left comments in Studio or pastes the line Studio copies; told to act on every open comment, read the organization's own and each playbook's that list_playbooks lists. A comment's address says which tool reads and changes its thing, such as get_definition for a step, get_run for a run or list_connections for a connection. Once a comment is acted on, resolve it with resolve_comment and the playbook it was read with. ${listing}`

/**
 * list_comments, of a playbook and of the organization (HTTP "Listing comments"): the open comments or the
 * resolved ones, newest first by `at`, on an address or under it, paged by cursors of the scope and the filters.
 */
export const [listComments, listCommentsInOrg] = declareInBoth(
  {
    name: "list_comments",
    title: "List comments",
    description: `Read the open comments people made in Studio on this playbook's things, newest first, or those on one address or under it. Its open comments are what people said and nobody has acted on yet: call it when the person says they left comments in Studio or pastes the line Studio copies. A comment's address says which tool reads and changes its thing, such as get_definition for a step or get_run for a run; a comment on an earlier version is read against the current document. Once a comment is acted on, resolve it with resolve_comment. ${listing}`,
    tag: "comments",
    kind: "query",
    route: { method: "GET", path: "/comments" },
    input: ListCommentsInput,
    output: CommentPage,
    summarize: ({ comments, has_more }, input) =>
      `Found ${comments.length} ${input.open === false ? "resolved" : "open"} comment${comments.length === 1 ? "" : "s"} on this page${has_more ? "; more follow from next_cursor" : ""}.`,
    handle: (input, context) =>
      Effect.gen(function* () {
        const scope = scopeOfCall(context)
        if (input.under === true && input.address === undefined)
          return yield* Effect.fail(
            invalidAt("/under", "under: keeps what is under an address; give the address too, or leave under out.")
          )
        const target =
          input.address === undefined ? undefined : checkAddress(input.address, scope, input.under === true)
        if (target !== undefined && Either.isLeft(target)) return yield* Effect.fail(target.left)
        const open = input.open ?? true
        const filter = target === undefined ? undefined : addressFilter(target.right, input.under === true)
        const cursorScope = [
          "comments",
          commentsPartition(scope),
          open ? "open" : "resolved",
          target === undefined ? "" : `${input.under === true ? "under" : "on"} ${addressText(target.right)}`
        ].join("|")
        const after =
          input.cursor === undefined
            ? undefined
            : Either.filterOrLeft(
                decodeCursor<CommentPosition>(cursorScope, input.cursor),
                (position) => typeof position?.sort === "string" && typeof position.id === "string",
                () => invalidAt("/cursor", cursorRefused)
              )
        if (after !== undefined && Either.isLeft(after)) return yield* Effect.fail(after.left)
        const page = yield* readCommentPage(
          scope,
          open,
          (comment) => filter === undefined || filter(comment.address),
          input.limit ?? defaultCommentLimit,
          after?.right
        )
        const answer = yield* withStudio(scope, context.origin)
        return {
          comments: page.comments.map(answer),
          has_more: page.next !== undefined,
          next_cursor: page.next === undefined ? null : encodeCursor(cursorScope, page.next)
        }
      })
  },
  { mcp: ["playbook"], orgDescription: toolWords }
)

/** list_comments as the tool of `/mcp`, the org endpoint and the directory listing, with `playbook` optional. */
export const listCommentsTool = routedByPlaybook(
  listComments,
  listCommentsInOrg,
  Schema.Struct({ playbook: PlaybookArgument, ...ListCommentsInput.fields })
)
