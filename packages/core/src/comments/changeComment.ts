import { Effect } from "effect"
import type { Caller } from "../domain/Caller.js"
import { notFound, type Rejection } from "../domain/Rejection.js"
import { type DraftFact, runDecider } from "../ledger/decide.js"
import type { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import type { CommentState } from "./Comment.js"
import { type CommentScope, commentStream } from "./CommentScope.js"
import { foldComment } from "./foldComment.js"

/** The words of an id the scope's comments do not hold, a comment of another scope among them. */
const missing = (scope: CommentScope, id: string): Rejection =>
  notFound(
    scope.kind === "playbook"
      ? `The playbook ${scope.playbook} has no comment ${id}.`
      : `The organization ${scope.org} has no comment ${id} of its own; a playbook's comment is resolved and reopened in its playbook.`
  )

/**
 * Changes one comment of a scope through its stream: refuses an id the scope does not hold, decides the facts from
 * the comment as it stands (none when nothing changes), and returns the comment after them.
 */
export const changeComment = (
  scope: CommentScope,
  id: string,
  caller: Caller,
  decide: (comment: CommentState) => ReadonlyArray<DraftFact>
): Effect.Effect<CommentState, Rejection, Ledger | Ids> =>
  Effect.map(
    runDecider<CommentState | undefined, Rejection, never>({
      stream: commentStream(scope, id),
      initial: undefined,
      fold: (comment, fact) => foldComment(comment, fact, id),
      decide: (comment) => (comment === undefined ? Effect.fail(missing(scope, id)) : Effect.succeed(decide(comment))),
      by: caller.id,
      what: `the comment ${id}`
    }),
    ({ state }) => state!
  )
