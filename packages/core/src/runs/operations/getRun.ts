import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { publicRun, Run } from "../RunRecord.js"
import { readRun } from "../readRun.js"
import { runSummary } from "../runSummary.js"

/** get_run: a run as it stands, with its output, record or rejection. */
export const getRun = declare({
  name: "get_run",
  title: "Read a run",
  description:
    "Read a run as it stands: its status, its output when it succeeded, its rejection when it did not, and its detailed record. A run that finishes later is read again until its status is succeeded, rejected or failed.",
  tag: "runs",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/runs/{run_id}" },
  input: Schema.Struct({ run_id: Uuid.annotations({ description: "The run's id." }) }),
  output: Run,
  permission: "playbook:read",
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found"],
  summarize: runSummary,
  handle: (input, { org, playbook }) => Effect.map(readRun(org, playbook!.id, input.run_id), publicRun)
})
