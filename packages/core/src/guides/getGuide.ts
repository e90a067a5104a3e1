import { Effect, Schema } from "effect"
import { declare } from "../catalog/Operation.js"
import { notFound } from "../domain/Rejection.js"
import { findGuide, guides } from "./Guides.js"

/** get_guide's output: the guide's name, title and whole text. */
export const GuideText = Schema.Struct({ name: Schema.String, title: Schema.String, text: Schema.String }).annotations({
  identifier: "Guide"
})

/** get_guide: one guide in full (the MCP tool; over HTTP the same text is at `GET /v1/guides/{guide}`). */
export const getGuide = declare({
  name: "get_guide",
  title: "Read a guide",
  description: `Read one of the runtime's guides in full, by its name. Read start first, before building or changing anything. The guides: ${guides.map((guide) => `${guide.name} (${guide.description})`).join("; ")}`,
  tag: "guides",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/guides/{guide}" },
  input: Schema.Struct({
    guide: Schema.Literal(...guides.map((guide) => guide.name)).annotations({ description: "The guide's name." })
  }),
  output: GuideText,
  permission: "none",
  served: { http: false, mcp: ["root", "org", "playbook", "directory"] },
  refusals: ["not_found"],
  summarize: (guide) => guide.text,
  relay: (guide) => guide.text,
  handle: (input) => {
    const guide = findGuide(input.guide)
    return guide === undefined
      ? Effect.fail(notFound(`There is no guide ${input.guide}.`))
      : Effect.succeed({ name: guide.name, title: guide.title, text: guide.text })
  }
})
