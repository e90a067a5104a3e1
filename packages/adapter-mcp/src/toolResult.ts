import type { CallToolResult } from "@modelcontextprotocol/server"
import { type OperationAnswer, problemDocument, type Rejection } from "@runledger/core"

/**
 * A successful tool result (MCP "Successful results"): the summary, or the words to relay whole, then the output as
 * JSON text and as structured content.
 */
export const successResult = (answer: OperationAnswer): CallToolResult => ({
  content: [
    { type: "text", text: answer.relay ?? answer.summary },
    { type: "text", text: JSON.stringify(answer.output) }
  ],
  structuredContent: answer.output as Record<string, unknown>
})

/** The words of a failure: its detail, and where a person resolves it when the problem names the place. */
const wordsOf = (rejection: Rejection): string => {
  const resolveAt = rejection.extras?.resolve_at
  return typeof resolveAt === "string" ? `${rejection.detail} A person resolves it at ${resolveAt}.` : rejection.detail
}

/** A failed tool result: `isError`, the failure in words, then its problem document; no structured content. */
export const failureResult = (rejection: Rejection, instance?: string): CallToolResult => ({
  isError: true,
  content: [
    { type: "text", text: wordsOf(rejection) },
    { type: "text", text: JSON.stringify(problemDocument(rejection, instance)) }
  ]
})
