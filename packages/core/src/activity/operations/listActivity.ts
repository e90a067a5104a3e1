import { Clock, Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { forbidden, notFound } from "../../domain/Rejection.js"
import { pageFields } from "../../paging/pageFields.js"
import { activityAccess } from "../ActivityAccess.js"
import { defaultActivityLimit, kindsOf, ListActivityInput } from "../ActivityInput.js"
import { activityCursor, positionOf, readActivityCursor } from "../ActivityPosition.js"
import { ActivityRow, activityKinds } from "../ActivityRow.js"
import { ActivityStanding, activityStanding, readSeenState, stillOpen } from "../ActivityStanding.js"
import { fillStarters } from "../fillStarters.js"
import { readRows } from "../readRows.js"

/** list_activity's output: a page of rows, newest first, with the caller's counts and through. */
export const ActivityPage = Schema.Struct({
  rows: Schema.Array(ActivityRow),
  ...pageFields,
  ...ActivityStanding.fields
}).annotations({ identifier: "ActivityPage" })

/** The words of a read by a caller of some playbooks that names none. */
export const namePlaybook =
  "This credential may access only some playbooks of the org; name one of them in playbook to read its activity."

/**
 * list_activity (HTTP "The organization's activity"): the rows of the playbooks the caller may access (and the
 * organization's own comments for a caller who may access every playbook), newest first by at, kept by kind,
 * playbook, mine and since, paged by cursor, with the caller's counts and through.
 */
export const listActivity = declare({
  name: "list_activity",
  title: "List the organization's activity",
  description:
    "Read what the organization's playbooks did that a person may want to see, newest first: requests that wait on an answer (needs_you), definitions whose latest run broke (broken), runs, versions and playbooks that are new (new), and open comments (comment), with counts of what the caller has to look at and where they marked everything seen. kind, playbook, mine and since keep some rows; pass next_cursor as cursor for the next page.",
  tag: "activity",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/activity" },
  input: ListActivityInput,
  output: ActivityPage,
  permission: ["org:read", "playbook:read"],
  served: { http: true, mcp: [] },
  refusals: ["not_found", "forbidden"],
  summarize: ({ rows, has_more }) =>
    `Read ${rows.length} row${rows.length === 1 ? "" : "s"} of the activity${has_more ? "; more follow from next_cursor" : ""}.`,
  handle: (input, { caller, org }) =>
    Effect.gen(function* () {
      const kinds = input.kind === undefined ? activityKinds : kindsOf(input.kind)!
      const since = input.since === undefined ? undefined : readActivityCursor(org, "since", input.since)
      if (since !== undefined && Either.isLeft(since)) return yield* Effect.fail(since.left)
      const before = input.cursor === undefined ? undefined : readActivityCursor(org, "cursor", input.cursor)
      if (before !== undefined && Either.isLeft(before)) return yield* Effect.fail(before.left)
      const access = yield* activityAccess(org, caller)
      if (input.playbook !== undefined && !access.playbooks.has(input.playbook))
        return yield* Effect.fail(notFound(`The org ${org} has no playbook ${input.playbook}.`))
      if (input.playbook !== undefined && !caller.mayAccess(input.playbook))
        return yield* Effect.fail(forbidden(`This credential may not act on the playbook ${input.playbook}.`))
      if (input.playbook === undefined && !caller.actsOnEveryPlaybook)
        return yield* Effect.fail(forbidden(namePlaybook))
      const now = yield* Clock.currentTimeMillis
      const { standing, reader } = yield* activityStanding(org, caller, access, yield* readSeenState(org, caller), now)
      const limit = input.limit ?? defaultActivityLimit
      const read = yield* readRows(org, {
        kinds,
        ...(before === undefined ? {} : { before: before.right }),
        ...(since === undefined ? {} : { after: since.right }),
        limit: limit + 1,
        keep: (item) =>
          access.visible(item) &&
          (input.playbook === undefined || item.playbook === input.playbook) &&
          stillOpen(item, now) &&
          (input.mine !== true || (item.kind !== "new" && item.kind !== "comment") || item.by === caller.id)
      })
      const page = yield* fillStarters(org, read.slice(0, limit))
      const rows = page.map(({ seen_by: _seenBy, kind, address, ...item }, index) => ({
        kind,
        address,
        cursor: activityCursor(org, positionOf(page[index])),
        ...item,
        seen: kind === "new" || kind === "comment" ? reader.seen(page[index]) : null
      }))
      return {
        rows,
        has_more: read.length > limit,
        next_cursor: read.length > limit ? rows[rows.length - 1].cursor : null,
        ...standing
      }
    })
})
