import type { CallerReference } from "../domain/Caller.js"

/** The facts of a playbook, on its stream `org/<org>/playbooks/<id>`. They are not playbook events. */
export type PlaybookFact =
  | { readonly type: "playbook_created"; readonly data: PlaybookCreated }
  | { readonly type: "playbook_updated"; readonly data: PlaybookUpdated }
  | { readonly type: "playbook_page_saved"; readonly data: PlaybookPageSaved }
  | { readonly type: "playbook_retired"; readonly data: Record<string, never> }
  | { readonly type: "playbook_restored"; readonly data: Record<string, never> }

/** A playbook was created, active and empty. */
export interface PlaybookCreated {
  readonly playbook: string
  readonly name: string
  readonly description: string
  readonly created_by: CallerReference
}

/** A playbook's name or description changed; only the fields that changed are present. */
export interface PlaybookUpdated {
  readonly name?: string
  readonly description?: string
}

/** A playbook's page was saved, or removed (`source: null`). */
export interface PlaybookPageSaved {
  readonly source: string | null
}

/** Every playbook fact type, for the projection and the stream's readers. */
export const playbookFactTypes: ReadonlyArray<PlaybookFact["type"]> = [
  "playbook_created",
  "playbook_updated",
  "playbook_page_saved",
  "playbook_retired",
  "playbook_restored"
]

/** The stream of one playbook's own facts. */
export const playbookStream = (org: string, playbook: string): string => `org/${org}/playbooks/${playbook}`

/** The prefix of every playbook stream of an org. */
export const orgPlaybooksPrefix = (org: string): string => `org/${org}/playbooks/`
