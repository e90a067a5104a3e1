import { Effect } from "effect"
import { Comment } from "../Comment.js"
import { scopeOfCall } from "../CommentScope.js"
import { changeComment } from "../changeComment.js"
import { CommentIdPath } from "../commentFields.js"
import { withStudio } from "../withStudio.js"
import { declareInBoth } from "./declareInBoth.js"

const words = (whose: string) =>
  `Open a resolved comment ${whose} again, as a person does in Studio when what it asked was not done: it is listed among the open comments, with reopened_at and reopened_by, until it is resolved again. Reopening an open comment changes nothing. Its text, anchor, by and at stay as it was made. Served over HTTP alone: a person, not an agent, reopens a comment.`

/**
 * reopen_comment, of a playbook and of the organization (HTTP "Reopening a comment"): records `comment_reopened`,
 * which holds no data, or nothing when the comment is open, and answers the comment as it then stands.
 */
export const [reopenComment, reopenCommentInOrg] = declareInBoth(
  {
    name: "reopen_comment",
    title: "Reopen a comment",
    description: words("of the playbook"),
    tag: "comments",
    kind: "command",
    route: { method: "POST", path: "/comments/{id}/reopen" },
    input: CommentIdPath,
    output: Comment,
    hints: { idempotent: true },
    refusals: ["not_found", "conflict"],
    summarize: (comment) => `The comment ${comment.id} on ${comment.address} is open again.`,
    handle: (input, context) =>
      Effect.gen(function* () {
        const scope = scopeOfCall(context)
        const comment = yield* changeComment(scope, input.id.toLowerCase(), context.caller, (comment) =>
          comment.open ? [] : [{ type: "comment_reopened", data: {} }]
        )
        return (yield* withStudio(scope, context.origin))(comment)
      })
  },
  { mcp: [], orgDescription: words("of the organization's own") }
)
