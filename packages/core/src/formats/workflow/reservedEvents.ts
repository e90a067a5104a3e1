/**
 * What the runtime keeps for itself in events (seed "What the runtime keeps for itself", operations.md §4): the
 * types it records, the sources of its own records, and the attributes it gives. An `emit` may not write them.
 */
export const reservedEventTypes: ReadonlySet<string> = new Set([
  "run_started",
  "run_deferred",
  "attempt_resumed",
  "run_succeeded",
  "run_rejected",
  "run_failed",
  "run_cancel_requested",
  "tool_call_started",
  "tool_call_answered",
  "tool_call_failed",
  "model_call_started",
  "model_call_answered",
  "model_call_failed",
  "request_answered",
  "delivery_started",
  "delivery_succeeded",
  "delivery_failed",
  "delivery_refused",
  "reply_refused",
  "telling_started",
  "telling_succeeded",
  "telling_failed",
  "replies_read",
  "reading_failed",
  "interaction_requested",
  "asset_kept",
  "asset_expired",
  "asset_content_removed",
  "definition_created",
  "definition_updated",
  "definition_retired",
  "definition_paused",
  "definition_resumed",
  "playbook_page_saved",
  "event_published",
  "workflow_input_applied",
  "step_started",
  "step_waiting",
  "step_finished",
  "step_failed",
  "step_skipped",
  "reaction_refused"
])

/** The starts of the sources the runtime's own records have. */
export const reservedSourcePrefixes: ReadonlyArray<string> = ["/runs/", "/definitions/", "/callers/"]

/** The attributes the runtime gives the playbook's events. */
export const reservedAttributes: ReadonlySet<string> = new Set([
  "causationid",
  "correlationid",
  "caller",
  "definitionversion",
  "depth",
  "calldepth",
  "calledby",
  "triggerkind",
  "triggerreference"
])
