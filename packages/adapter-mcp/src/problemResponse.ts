import { problemDocument, type Rejection } from "@runledger/core"

/** An HTTP answer to a request refused before MCP handles it: the rejection's problem document and status. */
export const problemResponse = (rejection: Rejection, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(problemDocument(rejection)), {
    status: rejection.status,
    headers: {
      "Content-Type": "application/problem+json",
      ...(rejection.reason === "unauthenticated" ? { "WWW-Authenticate": 'Bearer realm="RunLedger"' } : {}),
      ...headers
    }
  })
