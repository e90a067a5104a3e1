/** A tool a reasoning function names: `server/tool`, or `server/*` for every tool the server offers. */
export interface ToolReference {
  readonly server: string
  /** The tool's name, or `*`. */
  readonly tool: string
}

const serverName = /^[a-z][a-z0-9-]{0,31}$/
const toolName = /^[A-Za-z0-9_.-]{1,128}$/

/** Reads one tool reference (function-formats.md §1.6); absent when it is not one. */
export const readToolReference = (text: unknown): ToolReference | undefined => {
  if (typeof text !== "string") return undefined
  const slash = text.indexOf("/")
  if (slash < 0) return undefined
  const server = text.slice(0, slash)
  const tool = text.slice(slash + 1)
  return serverName.test(server) && (tool === "*" || toolName.test(tool)) ? { server, tool } : undefined
}
