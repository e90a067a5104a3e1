import { Schema } from "effect"
import { FactMetadata } from "../domain/Fact.js"

/** An event as the history routes return it (HTTP "Event fields"): the fact, its summary and its metadata. */
export const PlaybookEvent = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  summary: Schema.String,
  data: Schema.Unknown,
  metadata: FactMetadata
}).annotations({ identifier: "PlaybookEvent" })
export type PlaybookEvent = typeof PlaybookEvent.Type
