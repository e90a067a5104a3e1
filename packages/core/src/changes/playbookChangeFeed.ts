import type { Fact } from "../domain/Fact.js"
import { playbookStream } from "../playbooks/playbookFacts.js"
import { playbookStreamsPrefix } from "../runs/runFacts.js"
import type { PlaybookChange } from "./Change.js"
import { type ChangeFeed, commentFactTypes } from "./ChangeFeed.js"

/** The facts of a run that name its interaction beside it, when they carry no definition of their own. */
const interactionFactTypes = [
  "interaction_requested",
  "delivery_started",
  "delivery_succeeded",
  "delivery_failed",
  "delivery_refused",
  "request_answered",
  "reply_refused"
]

/** The facts list_playbook_events lists by their own id that no run, definition or comment holds. */
const eventFactTypes = [
  "event_published",
  "reaction_refused",
  "tool_call_started",
  "tool_call_answered",
  "tool_call_failed",
  "telling_started",
  "telling_succeeded",
  "telling_failed",
  "replies_read",
  "reading_failed"
]

/** What a fact on one of the playbook's streams names, by the stream's kind (HTTP "Changes", the second table). */
const namedBy = (fact: Fact, path: ReadonlyArray<string>): ReadonlyArray<PlaybookChange> => {
  const [kind, first, second] = path
  switch (kind) {
    case "definitions":
      return [{ kind: "definition", type: first, name: second }]
    case "runs":
      return fact.metadata.definition?.type === "interaction" || interactionFactTypes.includes(fact.type)
        ? [
            { kind: "run", run_id: first },
            { kind: "interaction", run_id: first }
          ]
        : [{ kind: "run", run_id: first }]
    case "comments":
      return commentFactTypes.includes(fact.type) ? [{ kind: "comment", comment_id: first }] : []
    default:
      return eventFactTypes.includes(fact.type) ? [{ kind: "event", event_id: fact.id }] : []
  }
}

/**
 * A playbook's changes (HTTP "Changes"): what its definitions, runs, events and comments record, on the streams
 * under `playbook/<org>/<playbook>/`, and its page saved or removed, on its own stream in the org's register.
 */
export const playbookChangeFeed = (org: string, playbook: string): ChangeFeed<PlaybookChange> => {
  const prefix = playbookStreamsPrefix(org, playbook)
  const own = playbookStream(org, playbook)
  return {
    scope: `changes:${org}/${playbook}`,
    filter: { streamPrefix: prefix },
    stream: own,
    wakes: (stream) => stream === own || stream.startsWith(prefix),
    names: (fact) =>
      fact.metadata.stream === own
        ? fact.type === "playbook_page_saved"
          ? [{ kind: "playbook" }]
          : []
        : namedBy(fact, fact.metadata.stream.slice(prefix.length).split("/"))
  }
}
