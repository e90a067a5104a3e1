import { createHash } from "node:crypto"
import { HttpServerResponse } from "@effect/platform"

/** A document served as it is (the OpenAPI document, a guide, the API catalog) with a strong ETag of its bytes. */
export interface PublishedResource {
  readonly bytes: Uint8Array<ArrayBuffer>
  readonly contentType: string
  readonly etag: string
  /** Headers its every response carries beside the caching ones, such as the catalog's `Link`. */
  readonly headers: Readonly<Record<string, string>>
}

/** Publishes a text under a media type, tagged by the SHA-256 of its UTF-8 bytes. */
export const publish = (
  text: string,
  contentType: string,
  headers: Readonly<Record<string, string>> = {}
): PublishedResource => {
  const bytes = new TextEncoder().encode(text)
  return { bytes, contentType, headers, etag: `"${createHash("sha256").update(bytes).digest("base64url")}"` }
}

/** Whether If-None-Match names a tag (weak comparison, RFC 9110 §13.1.2): `*`, the tag, or a list holding it. */
const namesTag = (ifNoneMatch: string, etag: string): boolean =>
  ifNoneMatch.trim() === "*" ||
  ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag.replace(/^W\//, ""))

/**
 * The response to a GET or HEAD of a published resource (HTTP "Caching"): `Cache-Control: public, max-age=300`
 * and its ETag, 304 without a body when If-None-Match names the tag (the web handler drops the body of a HEAD).
 */
export const respondPublished = (
  resource: PublishedResource,
  request: Request
): HttpServerResponse.HttpServerResponse => {
  const ifNoneMatch = request.headers.get("if-none-match")
  const headers = { ...resource.headers, etag: resource.etag, "cache-control": "public, max-age=300" }
  if (ifNoneMatch !== null && namesTag(ifNoneMatch, resource.etag))
    return HttpServerResponse.empty({ status: 304, headers })
  return HttpServerResponse.uint8Array(resource.bytes, { headers, contentType: resource.contentType })
}
