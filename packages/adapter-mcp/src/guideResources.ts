import { type ReadResourceResult, type Resource, ResourceNotFoundError } from "@modelcontextprotocol/server"
import { findGuide, type Guide, guides } from "@runledger/core"

/** The media type of every guide. */
const markdown = "text/markdown"

const scheme = "guide://"

/** A guide's resource address: `guide://<name>`. */
export const guideUri = (guide: Pick<Guide, "name">): string => `${scheme}${guide.name}`

/** Every guide as a Markdown resource, `start` first. */
export const guideResources = (): ReadonlyArray<Resource> =>
  guides.map((guide) => ({
    uri: guideUri(guide),
    name: guide.name,
    title: guide.title,
    description: guide.description,
    mimeType: markdown
  }))

/** The text of the guide a resource address names, the same text get_guide returns. */
export const readGuide = (uri: string): ReadResourceResult => {
  const guide = uri.startsWith(scheme) ? findGuide(uri.slice(scheme.length)) : undefined
  if (guide === undefined) throw new ResourceNotFoundError(uri)
  return { contents: [{ uri, mimeType: markdown, text: guide.text }] }
}
