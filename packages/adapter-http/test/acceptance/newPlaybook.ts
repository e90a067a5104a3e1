import { expect } from "vitest"
import type { AcceptanceServer } from "./storeServers.js"

/**
 * Creates a playbook of a fresh id in the local org, as a test's own place to save and run in, and answers its
 * path. The id starts with `prefix`, so a failing test's playbook says which file made it.
 */
export const newPlaybook = async (server: AcceptanceServer, prefix: string): Promise<string> => {
  const id = `${prefix}-${crypto.randomUUID().slice(0, 8)}`
  expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
  return `/v1/orgs/local/playbooks/${id}`
}
