import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { DefinitionType } from "../../definitions/DefinitionType.js"
import { DefinitionName } from "../../definitions/definitionFields.js"
import { defaultLimit, PageCursor, PageLimit, pageFields } from "../../paging/pageFields.js"
import { pageOfView } from "../../paging/pageOfView.js"
import { publicRun, Run, type RunState } from "../RunRecord.js"
import { runsPartition, runsView } from "../runsProjection.js"

/** A run as list_runs shows it: without output, record, and the detail and issues of a rejection. */
export const ListedRun = Run.pipe(Schema.omit("output", "record", "studio")).annotations({ identifier: "ListedRun" })

/** list_runs's output: one page of runs, newest first. */
export const RunPage = Schema.Struct({ runs: Schema.Array(ListedRun), ...pageFields }).annotations({
  identifier: "RunPage"
})

/** list_runs: the playbook's runs, newest first by first start, filtered and paged. */
export const listRuns = declare({
  name: "list_runs",
  title: "List runs",
  description:
    "List the playbook's runs, newest first, without their output and record. Filter by type and name, status, and steps: false to leave out the runs a workflow's step started. Pages come one at a time: read on from the next_cursor of the page before, until it is null.",
  tag: "runs",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/runs" },
  input: Schema.Struct({
    type: Schema.optional(DefinitionType),
    name: Schema.optional(DefinitionName),
    status: Schema.optional(Schema.Literal("started", "succeeded", "rejected", "failed")),
    steps: Schema.optional(
      Schema.Boolean.annotations({ description: "false leaves out the runs workflow steps started." })
    ),
    limit: Schema.optional(PageLimit),
    cursor: Schema.optional(PageCursor)
  }),
  output: RunPage,
  permission: "playbook:read",
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  summarize: ({ runs, has_more }) =>
    `Found ${runs.length} run${runs.length === 1 ? "" : "s"} on this page${has_more ? "; more follow from next_cursor" : ""}.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const filtered =
        input.type !== undefined || input.name !== undefined || input.status !== undefined || input.steps === false
      const page = yield* pageOfView<RunState>({
        view: runsView,
        partition: runsPartition(org, playbook!.id),
        scope: `runs:${org}/${playbook!.id}`,
        cursor: input.cursor,
        limit: input.limit ?? defaultLimit,
        keeps: filtered
          ? (run) =>
              (input.type === undefined || run.type === input.type) &&
              (input.name === undefined || run.name === input.name) &&
              (input.status === undefined || run.status === input.status) &&
              (input.steps !== false || run.within === undefined)
          : undefined
      })
      return {
        runs: page.items.map((run) => {
          const { output: _output, record: _record, studio: _studio, ...listed } = publicRun(run)
          const rejection = listed.rejection && {
            reason: listed.rejection.reason,
            ...(listed.rejection.kind === undefined ? {} : { kind: listed.rejection.kind }),
            ...(listed.rejection.because === undefined ? {} : { because: listed.rejection.because })
          }
          return { ...listed, ...(rejection === undefined ? {} : { rejection }) }
        }),
        has_more: page.has_more,
        next_cursor: page.next_cursor
      }
    })
})
