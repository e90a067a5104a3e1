import { Schema } from "effect"
import { Permission } from "./Permission.js"

/** Who sent a request: an API key, or the local developer in local mode. */
export class Caller extends Schema.Class<Caller>("Caller")({
  id: Schema.String,
  name: Schema.String,
  kind: Schema.Literal("key", "local", "person"),
  org: Schema.String,
  permissions: Schema.Array(Permission),
  /** The playbooks the caller may act on, or null for every playbook of the org. */
  playbooks: Schema.NullOr(Schema.Array(Schema.String))
}) {
  /** Whether the caller holds a permission. */
  holds(permission: Permission): boolean {
    return this.permissions.includes(permission)
  }

  /** Whether the caller may act on a playbook of its org. */
  mayAccess(playbook: string): boolean {
    return this.playbooks === null || this.playbooks.includes(playbook)
  }

  /** Whether the caller may act on every playbook of its org. */
  get actsOnEveryPlaybook(): boolean {
    return this.playbooks === null
  }

  /** The caller as records name it: `{ id, name }`. */
  get reference(): CallerReference {
    return { id: this.id, name: this.name }
  }
}

/** A caller as a record names it. */
export const CallerReference = Schema.Struct({ id: Schema.String, name: Schema.String })
export type CallerReference = typeof CallerReference.Type
