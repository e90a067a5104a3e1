import type { Fact } from "../domain/Fact.js"

/** The kinds of stream under `playbook/<org>/<playbook>/` whose facts are the playbook's events. */
const eventStreams = new Set(["definitions", "runs", "events", "tool-calls", "conversation-calls"])

/**
 * Whether a fact is one of the playbook's events (HTTP "The playbook's events"): what its definitions and runs
 * recorded, the events published to it and its reads of conversations — not, for example, the comments people made
 * on it.
 */
export const isPlaybookEvent = (fact: Fact): boolean => eventStreams.has(fact.metadata.stream.split("/")[3] ?? "")
