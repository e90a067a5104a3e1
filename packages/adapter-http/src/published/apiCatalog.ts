import type { Guide } from "@runledger/core"

/** The path of the API catalog (RFC 9727). */
export const apiCatalogPath = "/.well-known/api-catalog"

/** The `Link` header that points at the API catalog from any origin's responses. */
export const apiCatalogLink = (origin: string): string => `<${origin}${apiCatalogPath}>; rel="api-catalog"`

/**
 * The API catalog as an RFC 9264 linkset in the api-catalog profile (HTTP "The API catalog"): the API at /v1,
 * described by the OpenAPI document, documented by each guide, with its status at /health; addresses absolute.
 */
export const apiCatalog = (origin: string, guides: ReadonlyArray<Guide>) => ({
  linkset: [
    {
      anchor: `${origin}/v1`,
      "service-desc": [{ href: `${origin}/v1/openapi.json`, type: "application/openapi+json" }],
      "service-doc": guides.map((guide) => ({
        href: `${origin}/v1/guides/${guide.name}`,
        type: "text/markdown",
        title: guide.title
      })),
      status: [{ href: `${origin}/health` }]
    }
  ]
})
