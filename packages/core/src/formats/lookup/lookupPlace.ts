import type { Place } from "../document/Place.js"

/**
 * The keys of a lookup function's front matter (function-formats.md §5.2.1, decision F1): exactly one of `call`
 * (one tool marked reads) and `runs` (the outputs of another definition's runs), which the reader checks.
 */
export const lookupPlace: Place = {
  keys: {
    description: "value",
    call: { keys: { server: "value", tool: "value", with: "value", read: "value" }, required: ["server", "tool"] },
    runs: { keys: { type: "value", name: "value", status: "value", limit: "value" }, required: ["type", "name"] },
    input: { keys: { schema: "value" } },
    output: { keys: { schema: "value", shape: "value" } },
    page: "value"
  },
  refused: {
    to: "a lookup asks no party; an interaction function does",
    from: "a lookup asks no party; an interaction function does",
    expires: "a lookup finishes within its request",
    deliver: "a lookup sends no message; an interaction function does",
    replies: "a lookup sends no message; an interaction function does",
    reply: "a lookup sends no message; an interaction function does",
    model: "a lookup calls one tool and runs no model; a reasoning function does",
    config: "a lookup runs no model",
    tools: "a lookup names its one tool in call",
    language: "a lookup runs no program; a computation function does",
    source: "a lookup reads a tool's answer or another definition's runs, not the playbook's events",
    view: "a lookup keeps no view"
  }
}
