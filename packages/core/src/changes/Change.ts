import { Schema } from "effect"

/** A playbook of the org changed: created, updated (its page included), retired or restored. */
const NamedPlaybookChange = Schema.Struct({ kind: Schema.Literal("playbook"), playbook: Schema.String })

/** The route's own playbook changed: its page saved or removed. */
const OwnPlaybookChange = Schema.Struct({ kind: Schema.Literal("playbook") })

/** A function or workflow saved, paused, resumed, retired or restored. */
const DefinitionChange = Schema.Struct({ kind: Schema.Literal("definition"), type: Schema.String, name: Schema.String })

/** A run started, given an input or an event, or ended; or anything its steps and tool calls recorded. */
const RunChange = Schema.Struct({ kind: Schema.Literal("run"), run_id: Schema.String })

/** What the run of an interaction function records, named beside the run. */
const InteractionChange = Schema.Struct({ kind: Schema.Literal("interaction"), run_id: Schema.String })

/** An event published, a refusal of reactions, a tool called by hand, a telling or a read of a conversation. */
const EventChange = Schema.Struct({ kind: Schema.Literal("event"), event_id: Schema.String })

/** A comment made, resolved or reopened. */
const CommentChange = Schema.Struct({ kind: Schema.Literal("comment"), comment_id: Schema.String })

/** A change list_org_changes names: a resource and its identity. */
export const OrgChange = Schema.Union(NamedPlaybookChange, CommentChange).annotations({ identifier: "OrgChange" })
export type OrgChange = typeof OrgChange.Type

/** A change list_playbook_changes names: a resource and its identity. */
export const PlaybookChange = Schema.Union(
  OwnPlaybookChange,
  DefinitionChange,
  RunChange,
  InteractionChange,
  EventChange,
  CommentChange
).annotations({ identifier: "PlaybookChange" })
export type PlaybookChange = typeof PlaybookChange.Type

/** Any change either route names. */
export type Change = OrgChange | PlaybookChange

/** The answer of a changes route: the cursor to send back as `since`, the changes, and whether more changed. */
const changesAnswer = <A, I>(change: Schema.Schema<A, I>, identifier: string) =>
  Schema.Struct({
    cursor: Schema.String.annotations({ description: "Send it back as since to learn what changed after it." }),
    changes: Schema.Array(change),
    more: Schema.Boolean.annotations({ description: "More changed already: ask again at once with the cursor." })
  }).annotations({ identifier })

/** list_org_changes's output. */
export const OrgChanges = changesAnswer(OrgChange, "OrgChanges")

/** list_playbook_changes's output. */
export const PlaybookChanges = changesAnswer(PlaybookChange, "PlaybookChanges")

/** A changes answer as the handlers build it. */
export interface ChangesAnswer<C extends Change = Change> {
  readonly cursor: string
  readonly changes: ReadonlyArray<C>
  readonly more: boolean
}

/** The identity of a change: two records that name the same resource name it once. */
export const changeIdentity = (change: Change): string => JSON.stringify(Object.values(change))
