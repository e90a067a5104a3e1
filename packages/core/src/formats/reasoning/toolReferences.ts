import { serverNamePattern, toolNamePattern } from "../document/toolNames.js"

/** A tool a reasoning function names: `server/tool`, or `server/*` for every tool the server offers. */
export interface ToolReference {
  readonly server: string
  /** The tool's name, or `*`. */
  readonly tool: string
}

/** Reads one tool reference (function-formats.md §1.6); absent when it is not one. */
export const readToolReference = (text: unknown): ToolReference | undefined => {
  if (typeof text !== "string") return undefined
  const slash = text.indexOf("/")
  if (slash < 0) return undefined
  const server = text.slice(0, slash)
  const tool = text.slice(slash + 1)
  return serverNamePattern.test(server) && (tool === "*" || toolNamePattern.test(tool)) ? { server, tool } : undefined
}
