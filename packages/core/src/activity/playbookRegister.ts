import type { Projection } from "../ports/Views.js"
import { type ActivityItem, itemOf } from "./ActivityRow.js"
import { isoOf } from "./rowDoc.js"

/** The view of the org's register of playbooks: partition the org, one document, `register`. */
export const registerView = "activity_register"

/** The id of the register's one document. */
export const registerId = "register"

/** How many changes the register keeps: the newest 100; an older change has no row. */
export const registerBound = 100

/** One change of the register: a playbook created or updated, when and by whom, at which position of its stream. */
export interface PlaybookChange {
  readonly playbook: string
  readonly at: string
  /** The stream position of the change's last fact (absent from a document written before it was kept). */
  readonly position?: number
  readonly by: string
  readonly change: "created" | "updated"
}

/** The register's document: its changes, newest first. */
export interface PlaybookRegister {
  readonly changes: ReadonlyArray<PlaybookChange>
}

/**
 * Folds playbook facts into the register: each creation, and each update (its name, description or page), newest
 * first, the newest 100 kept. A page saved by the creation or update whose fact it follows in one append (the next
 * stream position, the same time) is part of that change.
 */
export const playbookRegisterProjection: Projection = {
  view: registerView,
  types: ["playbook_created", "playbook_updated", "playbook_page_saved"],
  keys: (fact) => {
    const [, org] = fact.metadata.stream.split("/")
    return [{ view: registerView, partition: org, id: registerId }]
  },
  apply: (current, fact, key) => {
    const changes = (current?.data as PlaybookRegister | undefined)?.changes ?? []
    const playbook = fact.metadata.stream.split("/")[3]
    const at = isoOf(fact.metadata.at)
    const position = fact.metadata.position
    const latest = changes[0]
    const pageOfLatest = fact.type === "playbook_page_saved" && latest?.playbook === playbook && latest.at === at
    if (pageOfLatest && latest.position === position - 1)
      return { id: key.id, sort: key.id, data: { changes: [{ ...latest, position }, ...changes.slice(1)] } }
    const change: PlaybookChange = {
      playbook,
      at,
      position,
      by: fact.metadata.by,
      change: fact.type === "playbook_created" ? "created" : "updated"
    }
    const register: PlaybookRegister = { changes: [change, ...changes].slice(0, registerBound) }
    return { id: key.id, sort: key.id, data: register }
  }
}

/**
 * A change of the register as the item a row shows: `playbooks/<playbook>/<stream position of its last fact>`
 * (`<at in milliseconds>` for a change kept before its position was).
 */
export const changeItem = (change: PlaybookChange): ActivityItem =>
  itemOf({
    kind: "new",
    address: `playbooks/${change.playbook}/${change.position ?? Date.parse(change.at)}`,
    playbook: change.playbook,
    at: change.at,
    by: change.by,
    seen_by: change.by,
    change: change.change
  })
