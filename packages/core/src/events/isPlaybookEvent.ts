import type { Fact } from "../domain/Fact.js"

/** The kinds of stream under `playbook/<org>/<playbook>/` whose facts are the playbook's events. */
const eventStreams = new Set(["definitions", "runs", "events", "tool-calls"])

/**
 * Whether a fact is one of the playbook's events (HTTP "The playbook's events"): what its definitions and runs
 * recorded and the events published to it — not, for example, the comments people made on it.
 */
export const isPlaybookEvent = (fact: Fact): boolean => eventStreams.has(fact.metadata.stream.split("/")[3] ?? "")
