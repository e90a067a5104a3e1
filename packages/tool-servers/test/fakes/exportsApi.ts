import { type ServedWeb, serveWeb } from "./serveWeb.js"

/** The OpenAPI document of the fake exports API: one operation that reads, answering as many bytes as asked. */
export const exportsDocument = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Exports", version: "1" },
  paths: {
    "/exports/{bytes}": {
      get: {
        operationId: "getExport",
        summary: "Reads an export of the size asked.",
        parameters: [{ name: "bytes", in: "path", required: true, schema: { type: "integer", minimum: 11 } }]
      }
    }
  }
})

/**
 * Serves the fake exports API on 127.0.0.1: `GET /exports/<bytes>` answers a JSON object of exactly that many
 * bytes, so a test reaches the most an answer may hold.
 */
export const serveExports = (): Promise<ServedWeb> =>
  serveWeb(async (request) => {
    const asked = new URL(request.url).pathname.match(/^\/exports\/([0-9]+)$/)
    if (asked === null) return new Response("not found", { status: 404 })
    const filler = "x".repeat(Number(asked[1]) - '{"data":""}'.length)
    return new Response(`{"data":"${filler}"}`, { headers: { "content-type": "application/json" } })
  })
