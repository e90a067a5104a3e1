import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { notFound } from "../../domain/Rejection.js"

/** render_playbook_page's output: the page's runs and standing (HTTP "The preview"). */
export const RenderedPlaybookPage = Schema.Struct({
  page: Schema.Struct({ runs: Schema.optional(Schema.Unknown), standing: Schema.optional(Schema.Unknown) })
}).annotations({ identifier: "RenderedPlaybookPage" })

/**
 * render_playbook_page: until the page format lands (decision F10) a playbook's page is kept but not rendered,
 * so this answers not_found in words that say so.
 */
export const renderPlaybookPage = declare({
  name: "render_playbook_page",
  title: "Render a playbook's page",
  description: "Render the playbook's page now, with its runs and standing where the page has data.",
  tag: "playbooks",
  kind: "query",
  scope: "playbook",
  route: { method: "POST", path: "/render" },
  input: Schema.Struct({}),
  output: RenderedPlaybookPage,
  permission: "playbook:read",
  served: { http: true, mcp: [] },
  refusals: ["not_found"],
  summarize: () => "The playbook's page is rendered.",
  handle: (_input, { playbook }) =>
    Effect.fail(
      notFound(
        playbook?.page === undefined
          ? `The playbook ${playbook?.id} has no page.`
          : `This runtime keeps the page of ${playbook.id} but does not render pages yet.`
      )
    )
})
