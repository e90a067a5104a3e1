import type { Fact } from "../domain/Fact.js"
import type { PlaybookEvent } from "./PlaybookEvent.js"
import { shownData } from "./shownData.js"
import { summaryOf } from "./summaryOf.js"

/** A fact as a page of events shows it: its data within 4 KiB, with its summary. */
export const pageEvent = (fact: Fact): PlaybookEvent => ({
  id: fact.id,
  type: fact.type,
  summary: summaryOf(fact),
  data: shownData(fact.type, fact.data),
  metadata: fact.metadata
})

/** A fact as get_event shows it: every field in full. */
export const fullEvent = (fact: Fact): PlaybookEvent => ({
  id: fact.id,
  type: fact.type,
  summary: summaryOf(fact),
  data: fact.data,
  metadata: fact.metadata
})
