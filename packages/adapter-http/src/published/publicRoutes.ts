import { HttpServerResponse } from "@effect/platform"
import type { Guide } from "@runledger/core"
import { methodNotAllowed } from "../response/methodNotAllowed.js"
import { allowOf } from "../routes/allowOf.js"
import { apiCatalog, apiCatalogLink, apiCatalogPath } from "./apiCatalog.js"
import { type PublishedResource, publish, respondPublished } from "./PublishedResource.js"

/** The media type of the API catalog (RFC 9727 §4). */
const linksetType = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'

/** Whether the server is up: never cached, and pointing at the API catalog. */
const health = (origin: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(
    { status: "ok" },
    { headers: { "cache-control": "no-store", link: apiCatalogLink(origin) } }
  )

/**
 * The routes that need no key (HTTP "The OpenAPI document, the guides and the API catalog"): `/health`, the OpenAPI
 * document, the API catalog and each guide, for GET and HEAD. An unknown guide name is not one of them.
 */
export const publicRoutes = (document: PublishedResource, guides: ReadonlyArray<Guide>) => {
  const guideTexts = new Map(
    guides.map((guide) => [
      `/v1/guides/${encodeURIComponent(guide.name)}`,
      publish(guide.text, "text/markdown; charset=utf-8")
    ])
  )
  const resourceAt = (pathname: string, origin: string): PublishedResource | "health" | undefined => {
    if (pathname === "/health") return "health"
    if (pathname === "/v1/openapi.json") return document
    if (pathname === apiCatalogPath)
      return publish(JSON.stringify(apiCatalog(origin, guides)), linksetType, { link: apiCatalogLink(origin) })
    return guideTexts.get(pathname)
  }
  /** The response of a public route, or undefined for a path that is not one. */
  return (request: Request, pathname: string, origin: string): HttpServerResponse.HttpServerResponse | undefined => {
    const resource = resourceAt(pathname, origin)
    if (resource === undefined) return undefined
    if (request.method !== "GET" && request.method !== "HEAD")
      return methodNotAllowed(request.method, allowOf(["GET"]), resource === "health" ? {} : resource.headers)
    return resource === "health" ? health(origin) : respondPublished(resource, request)
  }
}
