import { Effect, Schema } from "effect"
import { Comment } from "../Comment.js"
import { scopeOfCall } from "../CommentScope.js"
import { changeComment } from "../changeComment.js"
import { CommentIdPath, ResolveHow } from "../commentFields.js"
import { withStudio } from "../withStudio.js"
import { declareInBoth } from "./declareInBoth.js"
import { PlaybookArgument, routedByPlaybook } from "./routedByPlaybook.js"

/** resolve_comment's input: the comment's id from the path, and how it was resolved. */
export const ResolveCommentInput = Schema.Struct({ ...CommentIdPath.fields, how: ResolveHow })

const words = (open: "of this playbook" | "read with list_comments") =>
  `Close a comment ${open}: how acted once what it asked is done, or dismissed only when the person says to drop it.`

const toolWords = `${words("read with list_comments")} Give the playbook it was read with, or none for the organization's own comments. Resolving a resolved comment changes nothing and answers it as it stands. A retired playbook's comments cannot be resolved: report them to the person. Tell the person what was changed for each comment, with its studio link, and which were left open and why.`

/**
 * resolve_comment, of a playbook and of the organization (HTTP "Resolving a comment"): records `comment_resolved`
 * on the comment's stream, or nothing when it is resolved already, and answers the comment as it then stands.
 */
export const [resolveComment, resolveCommentInOrg] = declareInBoth(
  {
    name: "resolve_comment",
    title: "Resolve a comment",
    description: `${words("of this playbook")} Resolving a resolved comment changes nothing and answers it as it stands. Tell the person what was changed for each comment, with its studio link, and which were left open and why.`,
    tag: "comments",
    kind: "command",
    route: { method: "POST", path: "/comments/{id}/resolve" },
    input: ResolveCommentInput,
    output: Comment,
    hints: { idempotent: true },
    refusals: ["not_found", "conflict"],
    summarize: (comment) => `The comment ${comment.id} on ${comment.address} is resolved as ${comment.resolved_how}.`,
    handle: (input, context) =>
      Effect.gen(function* () {
        const scope = scopeOfCall(context)
        const comment = yield* changeComment(scope, input.id.toLowerCase(), context.caller, (comment) =>
          comment.open ? [{ type: "comment_resolved", data: { how: input.how } }] : []
        )
        return (yield* withStudio(scope, context.origin))(comment)
      })
  },
  { mcp: ["playbook"], orgDescription: toolWords }
)

/** resolve_comment as the tool of `/mcp`, the org endpoint and the directory listing, with `playbook` optional. */
export const resolveCommentTool = routedByPlaybook(
  resolveComment,
  resolveCommentInOrg,
  Schema.Struct({ playbook: PlaybookArgument, ...ResolveCommentInput.fields })
)
