import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { PlaybookId } from "../../domain/Ids.js"
import { conflict, invalidAt, invalidInput } from "../../domain/Rejection.js"
import type { DraftFact } from "../../ledger/decide.js"
import { changePlaybook } from "../changePlaybook.js"
import { checkPage } from "../checkPage.js"
import { PlaybookRecord } from "../PlaybookRecord.js"
import { PageSource, PlaybookDescription, PlaybookName } from "../playbookFields.js"

/** update_playbook's input: the playbook, and at least one of name, description and page. */
export const UpdatePlaybookInput = Schema.Struct({
  playbook: PlaybookId,
  name: Schema.optional(PlaybookName),
  description: Schema.optional(PlaybookDescription),
  page: Schema.optional(Schema.NullOr(PageSource))
})

/** update_playbook: changes the fields it is given and keeps the others; a change of nothing records nothing. */
export const updatePlaybook = declare({
  name: "update_playbook",
  title: "Change a playbook",
  description:
    "Change a playbook's name, description or page, keeping the fields not given. Give at least one of them; page null removes the page. An update that changes nothing records nothing.",
  tag: "playbooks",
  kind: "command",
  scope: "org",
  route: { method: "PUT", path: "/playbooks/{playbook}" },
  input: UpdatePlaybookInput,
  output: PlaybookRecord,
  permission: "org:write",
  hints: { idempotent: true },
  served: { http: true, mcp: ["root", "org", "directory"] },
  refusals: ["not_found", "conflict"],
  summarize: (playbook) => `The playbook “${playbook.name}” (${playbook.id}) stands as saved.`,
  handle: (input, { caller, org }) =>
    Effect.gen(function* () {
      if (input.name === undefined && input.description === undefined && input.page === undefined)
        return yield* Effect.fail(invalidAt("", "The input: give at least one of name, description and page."))
      if (typeof input.page === "string") {
        const issues = checkPage(input.page, "/page")
        if (issues.length > 0) return yield* Effect.fail(invalidInput(issues))
      }
      return yield* changePlaybook(org, input.playbook, caller, (playbook) => {
        if (playbook.status === "retired")
          return Effect.fail(
            conflict(`The playbook ${playbook.id} is retired; restore it before changing it.`, "retired")
          )
        const facts: Array<DraftFact> = []
        const changed = {
          ...(input.name !== undefined && input.name !== playbook.name ? { name: input.name } : {}),
          ...(input.description !== undefined && input.description !== playbook.description
            ? { description: input.description }
            : {})
        }
        if (Object.keys(changed).length > 0) facts.push({ type: "playbook_updated", data: changed })
        if (input.page !== undefined && input.page !== (playbook.page?.source ?? null))
          facts.push({ type: "playbook_page_saved", data: { source: input.page } })
        return Effect.succeed(facts)
      })
    })
})
