import type { MarkedBy, ToolHints, ToolMark, ToolServerEntry } from "@runledger/core"

/** A mark and what gave it. */
export interface Marking {
  readonly mark: ToolMark
  readonly markedBy: MarkedBy
}

/** The mark an MCP server's hints give: `reads` for readOnlyHint true, `acts` for readOnlyHint false or destructiveHint true. */
export const markOfHints = (hints: ToolHints | undefined): Marking => ({
  mark:
    hints?.readOnlyHint === true
      ? "reads"
      : hints?.readOnlyHint === false || hints?.destructiveHint === true
        ? "acts"
        : "unmarked",
  markedBy: "server"
})

/** The mark an HTTP method gives: `reads` for GET and HEAD, `acts` for the others. */
export const markOfMethod = (method: string): Marking => ({
  mark: method === "GET" || method === "HEAD" ? "reads" : "acts",
  markedBy: "method"
})

/** The operator's mark of a tool, in place of the server's or the method's, where the entry gives one. */
export const withSettings = (entry: ToolServerEntry, tool: string, marking: Marking): Marking => {
  const mark = entry.marks?.[tool]
  return mark === undefined ? marking : { mark, markedBy: "settings" }
}
