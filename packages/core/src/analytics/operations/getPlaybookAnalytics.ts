import { Clock, Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { DefinitionType } from "../../definitions/DefinitionType.js"
import { DefinitionName } from "../../definitions/definitionFields.js"
import { analyticsWindow } from "../AnalyticsWindow.js"
import { analyticsOf, runsOfBuckets, runsOfDays } from "../analyticsOf.js"
import { PlaybookAnalytics } from "../PlaybookAnalytics.js"
import { readBuckets, readDays } from "../readBuckets.js"

/** A day as `YYYY-MM-DD`. */
const Day = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, { message: () => "must be a day as YYYY-MM-DD, such as 2026-09-30" })
)

/** get_playbook_analytics's input: a window of days, and optionally one definition's runs. */
export const AnalyticsInput = Schema.Struct({
  days: Schema.optional(
    Schema.Int.pipe(
      Schema.filter((days) => [7, 14, 30].includes(days) || "must be 7, 14 or 30", {
        jsonSchema: { enum: [7, 14, 30] }
      }),
      Schema.annotations({ description: "The last 7, 14 or 30 days, ending today; 7 when nothing is given." })
    )
  ),
  from: Schema.optional(Day.annotations({ description: "The first day, YYYY-MM-DD in UTC, given with to." })),
  to: Schema.optional(Day.annotations({ description: "The last day, YYYY-MM-DD in UTC, at most today." })),
  type: Schema.optional(DefinitionType),
  name: Schema.optional(DefinitionName)
})

/** get_playbook_analytics: what the playbook's runs did over a window of days, in UTC. */
export const getPlaybookAnalytics = declare({
  name: "get_playbook_analytics",
  title: "Read the playbook's analytics",
  description:
    "Read what the playbook's runs did over a window of days in UTC: the runs that ended by how they ended, the tokens and cost of their model calls, the median and 95th percentile of their durations, for the whole window, for each day and for each definition. Give days (7, 14 or 30), or from and to; type and name keep one definition's runs.",
  tag: "analytics",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/analytics" },
  input: AnalyticsInput,
  output: PlaybookAnalytics,
  permission: "playbook:read",
  served: { http: true, mcp: [] },
  summarize: (analytics) =>
    `Over ${analytics.days} day${analytics.days === 1 ? "" : "s"}, ${analytics.runs.total} run${analytics.runs.total === 1 ? "" : "s"} ended: ${analytics.runs.succeeded} succeeded, ${analytics.runs.failed} failed and ${analytics.runs.rejected} were rejected.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const window = analyticsWindow(input, yield* Clock.currentTimeMillis)
      if (Either.isLeft(window)) return yield* Effect.fail(window.left)
      if (input.type === undefined && input.name === undefined)
        return analyticsOf(window.right, runsOfDays(yield* readDays(org, playbook!.id, window.right)))
      const buckets = yield* readBuckets(org, playbook!.id, window.right)
      return analyticsOf(
        window.right,
        runsOfBuckets(
          buckets.filter(
            (bucket) =>
              (input.type === undefined || bucket.type === input.type) &&
              (input.name === undefined || bucket.name === input.name)
          )
        )
      )
    })
})
