import type { Operation } from "@runledger/core"
import { allowOf } from "./allowOf.js"
import { routeTemplate } from "./routeTemplate.js"

/** One segment of a route template: a literal, or a named parameter. */
type Segment = { readonly literal: string } | { readonly parameter: string }

/** A route template with the operation each method reaches there. */
interface Route {
  readonly segments: ReadonlyArray<Segment>
  readonly methods: Map<string, Operation>
}

/** What a request's method and path reach. */
export type RouteMatch =
  | { readonly _tag: "Found"; readonly operation: Operation; readonly parameters: Readonly<Record<string, string>> }
  | { readonly _tag: "MethodNotAllowed"; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Malformed" }

const segmentsOf = (template: string): ReadonlyArray<Segment> =>
  template
    .split("/")
    .slice(1)
    .map((part) => (part.startsWith("{") && part.endsWith("}") ? { parameter: part.slice(1, -1) } : { literal: part }))

/** Decodes one path segment; undefined for a malformed percent-encoding. */
const decodeSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/**
 * The catalog's HTTP routes. A path matches a template segment by segment; where several match, literal segments
 * win over parameters from the left. HEAD reaches the GET operation of its path.
 */
export class RouteTable {
  /** The routes by their number of segments, each list most specific first. */
  private readonly routes: ReadonlyMap<number, ReadonlyArray<Route>>

  constructor(operations: ReadonlyArray<Operation>) {
    const byTemplate = new Map<string, Route>()
    for (const operation of operations.filter((candidate) => candidate.served.http)) {
      const template = routeTemplate(operation)
      const route = byTemplate.get(template) ?? { segments: segmentsOf(template), methods: new Map() }
      route.methods.set(operation.route.method, operation)
      byTemplate.set(template, route)
    }
    const routes = new Map<number, Array<Route>>()
    for (const route of [...byTemplate.values()].sort((a, b) => specificity(b) - specificity(a))) {
      const sameLength = routes.get(route.segments.length) ?? []
      sameLength.push(route)
      routes.set(route.segments.length, sameLength)
    }
    this.routes = routes
  }

  /** What a method and a pathname reach. */
  match(method: string, pathname: string): RouteMatch {
    const parts = pathname.split("/").slice(1)
    const matching = (this.routes.get(parts.length) ?? []).filter((route) =>
      route.segments.every((segment, index) =>
        "literal" in segment ? segment.literal === parts[index] : parts[index] !== ""
      )
    )
    if (matching.length === 0) return { _tag: "NotFound" }
    const routed = method === "HEAD" ? "GET" : method
    const route = matching.find((candidate) => candidate.methods.has(routed))
    if (route === undefined)
      return {
        _tag: "MethodNotAllowed",
        allow: allowOf(matching.flatMap((candidate) => [...candidate.methods.keys()]))
      }
    const parameters: Record<string, string> = {}
    for (const [index, segment] of route.segments.entries()) {
      if (!("parameter" in segment)) continue
      const value = decodeSegment(parts[index])
      if (value === undefined) return { _tag: "Malformed" }
      parameters[segment.parameter] = value
    }
    return { _tag: "Found", operation: route.methods.get(routed)!, parameters }
  }
}

/** A route's rank among those matching one path: literal segments to the left rank first. */
const specificity = (route: Route): number =>
  route.segments.reduce((rank, segment, index) => rank + ("literal" in segment ? 2 ** (32 - index) : 0), 0)
