/** Whose comments an operation acts on: one playbook's, or the organization's own. */
export type CommentScope =
  | { readonly kind: "playbook"; readonly org: string; readonly playbook: string }
  | { readonly kind: "org"; readonly org: string }

/** The stream of one comment: `playbook/<org>/<playbook>/comments/<id>` or `org/<org>/comments/<id>`. */
export const commentStream = (scope: CommentScope, id: string): string =>
  scope.kind === "playbook"
    ? `playbook/${scope.org}/${scope.playbook}/comments/${id}`
    : `org/${scope.org}/comments/${id}`

/** The scope and comment id of a comment's stream, or undefined for any other stream. */
export const scopeOfStream = (stream: string): { readonly scope: CommentScope; readonly id: string } | undefined => {
  const segments = stream.split("/")
  if (segments.length === 5 && segments[0] === "playbook" && segments[3] === "comments")
    return { scope: { kind: "playbook", org: segments[1], playbook: segments[2] }, id: segments[4] }
  if (segments.length === 4 && segments[0] === "org" && segments[2] === "comments")
    return { scope: { kind: "org", org: segments[1] }, id: segments[3] }
  return undefined
}

/** The scope in words, for refusals: "the playbook finance" or "the organization acme". */
export const scopeWords = (scope: CommentScope): string =>
  scope.kind === "playbook" ? `the playbook ${scope.playbook}` : `the organization ${scope.org}`

/** The scope of a call: the playbook it acts in, or the organization where it acts in none. */
export const scopeOfCall = (context: {
  readonly org: string
  readonly playbook: { readonly id: string } | undefined
}): CommentScope =>
  context.playbook === undefined
    ? { kind: "org", org: context.org }
    : { kind: "playbook", org: context.org, playbook: context.playbook.id }
