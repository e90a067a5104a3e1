import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { RuntimeConfig } from "../../config/RuntimeConfig.js"
import { PlaybookId } from "../../domain/Ids.js"
import { conflict, forbidden, type Rejection } from "../../domain/Rejection.js"
import { runDecider } from "../../ledger/decide.js"
import { studioLink } from "../../studio/studioLink.js"
import { foldPlaybook } from "../foldPlaybook.js"
import { PlaybookRecord } from "../PlaybookRecord.js"
import { type PlaybookCreated, playbookStream } from "../playbookFacts.js"
import { PlaybookDescription, PlaybookName } from "../playbookFields.js"

/** create_playbook's input. */
export const CreatePlaybookInput = Schema.Struct({
  playbook: PlaybookId,
  name: PlaybookName,
  description: Schema.optional(PlaybookDescription)
})

/** A playbook with its page in Studio, as create_playbook returns it. */
export const CreatedPlaybook = Schema.extend(
  PlaybookRecord,
  Schema.Struct({ studio: Schema.optional(Schema.String) })
).annotations({ identifier: "CreatedPlaybook" })

/** create_playbook: a new playbook, active and empty, under an id the org never had. */
export const createPlaybook = declare({
  name: "create_playbook",
  title: "Create a playbook",
  description:
    "Create a playbook, active and empty. Each job a playbook does again and again is a workflow, and each part of a job a function of the type that part needs. The id is 3 to 48 lowercase letters, digits and hyphens, beginning with a letter, and can never be taken again in the org.",
  tag: "playbooks",
  kind: "command",
  scope: "org",
  route: { method: "POST", path: "/playbooks" },
  input: CreatePlaybookInput,
  output: CreatedPlaybook,
  success: 201,
  permission: "org:write",
  served: { http: true, mcp: ["root", "org", "directory"] },
  refusals: ["conflict", "forbidden"],
  summarize: (playbook) => `Created the playbook “${playbook.name}” (${playbook.id}), active and empty.`,
  handle: (input, { caller, org, origin }) =>
    Effect.gen(function* () {
      if (!caller.mayAccess(input.playbook))
        return yield* Effect.fail(
          forbidden(`This credential may only create the playbooks on its list; ${input.playbook} is not on it.`)
        )
      const created: PlaybookCreated = {
        playbook: input.playbook,
        name: input.name,
        description: input.description ?? "",
        created_by: caller.reference
      }
      const { state } = yield* runDecider<PlaybookRecord | undefined, Rejection, never>({
        stream: playbookStream(org, input.playbook),
        initial: undefined,
        fold: foldPlaybook,
        decide: (existing) =>
          existing === undefined
            ? Effect.succeed([{ type: "playbook_created", data: created }])
            : Effect.fail(conflict(`The org ${org} has or had a playbook ${input.playbook}; choose another id.`)),
        by: caller.id,
        what: "the org's playbooks"
      })
      const settings = yield* RuntimeConfig
      const studio = studioLink(settings, origin, [
        ["src", "agent"],
        ["playbook", input.playbook]
      ])
      return { ...state!, ...(studio === undefined ? {} : { studio }) }
    })
})
