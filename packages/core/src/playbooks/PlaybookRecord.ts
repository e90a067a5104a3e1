import { Schema } from "effect"
import { CallerReference } from "../domain/Caller.js"

/** A playbook as the org's register holds it (the `playbooks` view) and as every playbook operation returns it. */
export const PlaybookRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  status: Schema.Literal("active", "retired"),
  created_at: Schema.String,
  created_by: CallerReference,
  updated_at: Schema.String,
  retired_at: Schema.optional(Schema.String),
  page: Schema.optional(Schema.Struct({ source: Schema.String }))
}).annotations({ identifier: "Playbook", title: "Playbook" })
export type PlaybookRecord = typeof PlaybookRecord.Type

/** The playbook without its page, as list_playbooks shows it. */
export const withoutPage = ({ page: _page, ...playbook }: PlaybookRecord): PlaybookRecord => playbook
