import type { Operation } from "@runledger/core"

/** The prefix of the routes of each scope: the org's, and one playbook's inside it. */
const scopePrefix = { org: "/v1/orgs/{org}", playbook: "/v1/orgs/{org}/playbooks/{playbook}" } as const

/** The full route template of an operation, such as `/v1/orgs/{org}/playbooks/{playbook}/retire`. */
export const routeTemplate = (operation: Operation): string => scopePrefix[operation.scope] + operation.route.path

/** The names of the `{parameters}` of a route template, in order. */
export const parameterNames = (template: string): ReadonlyArray<string> =>
  [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1])

/** Whether an operation takes its input from the query string (GET and DELETE) rather than a JSON body. */
export const takesQuery = (operation: Operation): boolean =>
  operation.route.method === "GET" || operation.route.method === "DELETE"
