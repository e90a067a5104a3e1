import { canonicalDigest } from "../runs/canonicalDigest.js"

/** A CloudEvents 1.0 event as the playbook keeps it: every attribute as given or filled in, extensions included. */
export interface CloudEvent {
  readonly specversion: "1.0"
  readonly id: string
  readonly source: string
  readonly type: string
  readonly time: string
  readonly subject?: string
  readonly datacontenttype?: string
  readonly dataschema?: string
  readonly data?: unknown
  readonly [extension: string]: unknown
}

/**
 * `event_published`: an event the playbook recorded, published by a caller or emitted by a workflow's step (HTTP
 * "Publishing events"): its id, type, source, subject, time and data, the whole event, and which attributes the
 * runtime filled in.
 */
export interface EventPublished {
  readonly event_id: string
  readonly event_type: string
  readonly source: string
  readonly subject?: string
  readonly time: string
  readonly data?: unknown
  readonly filled: ReadonlyArray<"id" | "time" | "specversion">
  readonly event: CloudEvent
}

/** The fact type of a recorded event. */
export const eventPublished = "event_published"

/**
 * The stream of one published or emitted event: the playbook keeps one event per source and id, so the stream is
 * named by their digest and the first append (at version 0) wins.
 */
export const playbookEventStream = (org: string, playbook: string, source: string, id: string): string =>
  `playbook/${org}/${playbook}/events/${canonicalDigest([source, id])}`

/** The data of `event_published` for an event as kept. */
export const eventPublishedData = (event: CloudEvent, filled: EventPublished["filled"]): EventPublished => ({
  event_id: event.id,
  event_type: event.type,
  source: event.source,
  ...(event.subject === undefined ? {} : { subject: event.subject }),
  time: event.time,
  ...(event.data === undefined ? {} : { data: event.data }),
  filled,
  event
})
