import type { Operation } from "../catalog/Operation.js"
import { listComments, listCommentsInOrg, listCommentsTool } from "./operations/listComments.js"
import { makeComment, makeCommentInOrg } from "./operations/makeComment.js"
import { reopenComment, reopenCommentInOrg } from "./operations/reopenComment.js"
import { resolveComment, resolveCommentInOrg, resolveCommentTool } from "./operations/resolveComment.js"

/**
 * The comment operations, in the catalog's order: each of a playbook's before the organization's, and the MCP
 * tools that take `playbook` as an optional argument after them.
 */
export const commentOperations: ReadonlyArray<Operation> = [
  makeComment,
  makeCommentInOrg,
  listComments,
  listCommentsInOrg,
  listCommentsTool,
  resolveComment,
  resolveCommentInOrg,
  resolveCommentTool,
  reopenComment,
  reopenCommentInOrg
]
