import { Clock, Effect, Either } from "effect"
import { declare } from "../../catalog/Operation.js"
import type { Caller } from "../../domain/Caller.js"
import { concurrentChange, forbidden, invalidAt, type Rejection } from "../../domain/Rejection.js"
import { placeFacts } from "../../ledger/decide.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { Ledger } from "../../ports/Ledger.js"
import { activityAccess } from "../ActivityAccess.js"
import { MarkActivitySeenInput } from "../ActivityInput.js"
import { readActivityCursor } from "../ActivityPosition.js"
import { ActivityStanding, activityStanding, readSeenState } from "../ActivityStanding.js"
import { type ActivitySeen, activityStream, type MarkedItem } from "../activityFacts.js"
import { isTime, ownerOfItem } from "../itemAddress.js"

/** The words of a mark of the organization's own comment by a caller of some playbooks. */
export const orgCommentsForbidden =
  "The caller may not mark the organization's comments, which only a caller who may access every playbook sees"

/** What the caller may not mark: an item of a playbook they may not access, or a comment of the organization's own. */
const unmarkable = (items: ReadonlyArray<MarkedItem>, caller: Caller): Rejection | undefined => {
  for (const item of items) {
    const owner = ownerOfItem(item.address)
    if (owner === undefined) continue
    if (owner.playbook === null && !caller.actsOnEveryPlaybook) return forbidden(orgCommentsForbidden)
    if (owner.playbook !== null && !caller.mayAccess(owner.playbook))
      return forbidden(`This credential may not mark items of the playbook ${owner.playbook}.`)
  }
  return undefined
}

/** The first item whose address is of no form of the activity's rows or whose at is not a time. */
const malformed = (items: ReadonlyArray<MarkedItem>): Rejection | undefined => {
  const index = items.findIndex((item) => ownerOfItem(item.address) === undefined || !isTime(item.at))
  if (index < 0) return undefined
  return invalidAt(
    `/items/${index}`,
    ownerOfItem(items[index].address) === undefined
      ? `items, then ${index}: the address ${JSON.stringify(items[index].address)} is not of a form of the activity's rows; give the address a row of list_activity gives.`
      : `items, then ${index}: at must be a time in ISO 8601, as the row gives it.`
  )
}

/**
 * mark_activity_seen (HTTP "Marking items seen"): records `activity_seen` on the caller's own stream, every request
 * a fact of its own, and answers counts and through after it. Another mark of the same caller recorded at the same
 * moment makes it `conflict`.
 */
export const markActivitySeen = declare({
  name: "mark_activity_seen",
  title: "Mark activity seen",
  description:
    "Mark rows of the organization's activity seen, for the caller alone: items, the new and comment rows seen, each its address and at as the row gives them (at most 200), and through, the cursor of a row at or before which everything is seen. through never moves back. Answers the caller's counts and through after the mark.",
  tag: "activity",
  kind: "command",
  scope: "org",
  route: { method: "POST", path: "/activity/seen" },
  input: MarkActivitySeenInput,
  output: ActivityStanding,
  permission: ["org:read", "playbook:read"],
  served: { http: true, mcp: [] },
  refusals: ["forbidden", "conflict"],
  summarize: ({ counts }) =>
    `Marked seen; ${counts.new} new row${counts.new === 1 ? "" : "s"} and ${counts.comments} comment${counts.comments === 1 ? "" : "s"} remain unseen.`,
  handle: (input, { caller, org }) =>
    Effect.gen(function* () {
      const items = input.items ?? []
      const through = input.through === undefined ? undefined : readActivityCursor(org, "through", input.through)
      if (through !== undefined && Either.isLeft(through)) return yield* Effect.fail(through.left)
      const refusal =
        unmarkable(items, caller) ??
        (items.length === 0 && through === undefined
          ? invalidAt("/items", "items: give the rows seen, or through, or both; a mark of nothing marks nothing.")
          : malformed(items))
      if (refusal !== undefined) return yield* Effect.fail(refusal)
      const seen: ActivitySeen = {
        items: items.map(({ address, at }) => ({ address, at })),
        through: through === undefined ? null : through.right
      }
      const ledger = yield* Ledger
      const stream = activityStream(org, caller.id)
      const version = yield* storeToRejection(ledger.streamVersion(stream))
      const facts = yield* placeFacts([{ type: "activity_seen", data: seen }], caller.id)
      yield* storeToRejection(ledger.append([{ stream, expected: version, facts }])).pipe(
        Effect.catchTag("VersionConflict", () =>
          Effect.fail(concurrentChange("what this caller marked seen in the activity"))
        )
      )
      const access = yield* activityAccess(org, caller)
      const { standing } = yield* activityStanding(
        org,
        caller,
        access,
        yield* readSeenState(org, caller),
        yield* Clock.currentTimeMillis
      )
      return standing
    })
})
