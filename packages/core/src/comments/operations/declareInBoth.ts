import { declare, type McpEndpoint, type Operation } from "../../catalog/Operation.js"

/** A comment operation as both its routes share it: everything but where it acts, who may call it and its MCP. */
export type SharedDeclaration<I, O> = Omit<
  Operation<I, O>,
  "scope" | "permission" | "served" | "hints" | "refusals" | "success"
> &
  Partial<Pick<Operation<I, O>, "hints" | "refusals" | "success">>

/**
 * Declares a comment operation twice (HTTP "Comments", "The organization's comments"): relative to a playbook,
 * with playbook:read, and relative to the organization as `<name>_in_org`, with org:read or playbook:read. Both
 * are served over HTTP; `mcp` lists the endpoints of the playbook's, and `orgDescription` gives the organization's
 * its own words.
 */
export const declareInBoth = <I, O>(
  shared: SharedDeclaration<I, O>,
  options: { readonly mcp: ReadonlyArray<McpEndpoint>; readonly orgDescription: string }
): readonly [Operation<I, O>, Operation<I, O>] => [
  declare({ ...shared, scope: "playbook", permission: "playbook:read", served: { http: true, mcp: options.mcp } }),
  declare({
    ...shared,
    name: `${shared.name}_in_org`,
    description: options.orgDescription,
    scope: "org",
    permission: ["org:read", "playbook:read"],
    served: { http: true, mcp: [] }
  })
]
