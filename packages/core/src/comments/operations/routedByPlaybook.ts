import { Effect, Schema } from "effect"
import { dispatch } from "../../catalog/Dispatcher.js"
import { declare, type Operation } from "../../catalog/Operation.js"
import { PlaybookId } from "../../domain/Ids.js"

/** The optional `playbook` argument of a tool that acts on a playbook's comments or the organization's own. */
export const PlaybookArgument = Schema.optional(
  PlaybookId.annotations({
    description:
      "The playbook whose comments to act on, as list_playbooks lists it; left out for the organization's own comments."
  })
)

/**
 * The MCP tool of `/mcp`, the org endpoint and the directory listing that keeps the playbook operation's name and
 * takes `playbook` as an optional argument (MCP seed, "Comments"): with it, the call is the playbook's operation in
 * that playbook; without it, the organization's. Each goes through the dispatcher again, so access, a retired
 * playbook and every field are refused as on that operation's own route. Served over MCP alone.
 */
export const routedByPlaybook = <I, O>(
  inPlaybook: Operation<I, O>,
  inOrg: Operation<I, O>,
  input: Schema.Schema<I & { readonly playbook?: string | undefined }, any>
): Operation<I & { readonly playbook?: string | undefined }, O> =>
  declare({
    ...inOrg,
    name: inPlaybook.name,
    input,
    served: { http: false, mcp: ["root", "org", "directory"] },
    summarize: (output, { playbook: _playbook, ...rest }) => inOrg.summarize(output, rest as I),
    handle: ({ playbook, ...rest }, { caller, org, origin }) =>
      Effect.gen(function* () {
        const operation = playbook === undefined ? inOrg : inPlaybook
        const answer = yield* dispatch({
          operation,
          caller,
          org,
          input: rest,
          origin,
          ...(playbook === undefined ? {} : { playbook })
        })
        return yield* Effect.orDie(Schema.decodeUnknown(operation.output)(answer.output))
      })
  })
