import { type ServedWeb, serveWeb } from "./serveWeb.js"

/** The OpenAPI document of the fake billing API. */
export const billingDocument = {
  openapi: "3.1.0",
  info: { title: "Billing", version: "1.0.0" },
  paths: {
    "/invoices/{id}": {
      get: {
        operationId: "getInvoice",
        summary: "Reads one invoice.",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "The invoice" } }
      },
      delete: {
        operationId: "voidInvoice",
        summary: "Voids one invoice.",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "204": { description: "Voided" } }
      }
    },
    "/invoices": {
      post: {
        operationId: "createInvoice",
        summary: "Creates an invoice for a customer.",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NewInvoice" } } }
        },
        responses: { "201": { description: "Created" } }
      }
    },
    "/customers": {
      get: {
        operationId: "listCustomers",
        summary: "Lists the customers, with the invoice each owes.",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer" } }],
        responses: { "200": { description: "Customers" } }
      }
    },
    "/search": {
      post: {
        operationId: "searchInvoices",
        summary: "Searches invoices by text.",
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: { "200": { description: "Found" } }
      }
    }
  },
  components: {
    schemas: {
      NewInvoice: {
        type: "object",
        required: ["customer", "lines"],
        properties: {
          customer: { type: "string" },
          lines: { type: "array", items: { $ref: "#/components/schemas/Line" } }
        }
      },
      Line: { type: "object", properties: { amount: { type: "integer" } } }
    }
  }
}

/** The fake billing API served on 127.0.0.1, and the requests it took (method, path, query, body). */
export interface BillingApi extends ServedWeb {
  readonly requests: Array<{ method: string; path: string; query: string; body: unknown }>
}

/** Serves the fake billing API: its document at `/openapi.json`, its operations under `/`, each needing `x-api-key`. */
export const serveBilling = async (key: string): Promise<BillingApi> => {
  const requests: BillingApi["requests"] = []
  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } })
  const served = await serveWeb(async (request) => {
    const url = new URL(request.url)
    if (url.pathname === "/openapi.json") return json(billingDocument)
    const body = request.method === "POST" ? await request.json() : undefined
    requests.push({ method: request.method, path: url.pathname, query: url.search, body })
    if (request.headers.get("x-api-key") !== key) return json({ error: "unknown key" }, 401)
    const invoice = url.pathname.match(/^\/invoices\/([^/]+)$/)
    if (invoice && request.method === "GET")
      return invoice[1] === "missing" ? json({ error: "no such invoice" }, 404) : json({ id: invoice[1], total: 1200 })
    if (invoice && request.method === "DELETE") return new Response(null, { status: 204 })
    if (url.pathname === "/invoices") return json({ id: "inv-9", ...(body as object) }, 201)
    if (url.pathname === "/customers")
      return json({ customers: [{ id: "c1", owes: "inv-2041" }], limit: url.searchParams.get("limit") })
    return json({ error: "not found" }, 404)
  })
  return Object.assign(served, { requests })
}
