import { Schema } from "effect"
import { FactMetadata } from "../domain/Fact.js"

/**
 * An event as the history routes return it (HTTP "Event fields"): the fact, its summary and its metadata, less the
 * metadata kept only for the read models.
 */
export const PlaybookEvent = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  summary: Schema.String,
  data: Schema.Unknown,
  metadata: FactMetadata.pipe(Schema.omit("first_started_at"))
}).annotations({ identifier: "PlaybookEvent" })
export type PlaybookEvent = typeof PlaybookEvent.Type
