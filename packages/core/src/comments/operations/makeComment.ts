import { Clock, Effect, Either, Schema } from "effect"
import { concurrentChange, type Rejection } from "../../domain/Rejection.js"
import { runDecider } from "../../ledger/decide.js"
import { Ids } from "../../ports/Ids.js"
import { Comment, type CommentState } from "../Comment.js"
import { addressText } from "../CommentAddress.js"
import { commentStream, scopeOfCall } from "../CommentScope.js"
import { checkAddress } from "../checkAddress.js"
import type { CommentMade } from "../commentFacts.js"
import { AddressText, AnchorInput, CommentText } from "../commentFields.js"
import { foldComment } from "../foldComment.js"
import { withStudio } from "../withStudio.js"
import { declareInBoth } from "./declareInBoth.js"

/** make_comment's input: the address, the text, and where on the thing it was dropped. */
export const MakeCommentInput = Schema.Struct({
  address: AddressText,
  text: CommentText,
  anchor: Schema.optional(AnchorInput)
})

/**
 * make_comment, of a playbook and of the organization (HTTP "Making a comment"): checks the input as a whole, then
 * the address's form against the route, and records `comment_made` on the new comment's own stream. Served over
 * HTTP alone, since an agent does not comment on its own work.
 */
export const [makeComment, makeCommentInOrg] = declareInBoth(
  {
    name: "make_comment",
    title: "Make a comment",
    description:
      "Comment on a thing of the playbook, where a person sees it in Studio: a definition, a step of a workflow, a run, an event of a run, a block of a run's result, a request or the playbook itself, or a part of one, named by its address. text is Markdown; anchor is where on the thing the comment was dropped, left out for a reply. The comment stays open until it is resolved. Served over HTTP alone: an agent does not comment on its own work.",
    tag: "comments",
    kind: "command",
    route: { method: "POST", path: "/comments" },
    input: MakeCommentInput,
    output: Comment,
    success: 201,
    summarize: (comment) => `Made the comment ${comment.id} on ${comment.address}; it is open.`,
    handle: (input, context) =>
      Effect.gen(function* () {
        const scope = scopeOfCall(context)
        const address = checkAddress(input.address, scope, false)
        if (Either.isLeft(address)) return yield* Effect.fail(address.left)
        const ids = yield* Ids
        const id = yield* ids.uuidv7(yield* Clock.currentTimeMillis)
        const made: CommentMade = {
          address: addressText(address.right),
          text: input.text,
          anchor: input.anchor ?? null,
          by_name: context.caller.name
        }
        const { state } = yield* runDecider<CommentState | undefined, Rejection, never>({
          stream: commentStream(scope, id),
          initial: undefined,
          fold: (comment, fact) => foldComment(comment, fact, id),
          decide: (existing) =>
            existing === undefined
              ? Effect.succeed([{ type: "comment_made", data: made }])
              : Effect.fail(concurrentChange(`the comment ${id}`)),
          by: context.caller.id,
          what: `the comment ${id}`
        })
        return (yield* withStudio(scope, context.origin))(state!)
      })
  },
  {
    mcp: [],
    orgDescription:
      "Comment on a thing of the organization, where a person sees it in Studio: the organization itself, a connection, a member or a page of Settings (org, org/connections/<connection>, org/members/<member>, org/settings/<page>), or a part of one. text is Markdown; anchor is where on the thing the comment was dropped, left out for a reply. The comment belongs to no playbook and stays open until it is resolved. Served over HTTP alone: an agent does not comment on its own work."
  }
)
