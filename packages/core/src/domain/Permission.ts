import { Schema } from "effect"

/** A permission an API key holds (HTTP "Requests and access"). */
export const Permission = Schema.Literal("org:read", "org:write", "playbook:read", "playbook:write")
export type Permission = typeof Permission.Type

/** Every permission, in the seed's order. */
export const allPermissions: ReadonlyArray<Permission> = ["org:read", "org:write", "playbook:read", "playbook:write"]
