import { UrlParams } from "@effect/platform"
import { badRequest, type Operation, type Rejection } from "@runledger/core"
import { Effect } from "effect"
import { parameterNames, routeTemplate, takesQuery } from "../routes/routeTemplate.js"
import { type InputFields, inputFields } from "../schema/inputFields.js"
import { coerceQueryValue } from "./coerceQueryValue.js"
import { jsonBody } from "./jsonBody.js"
import { readBytes } from "./readBytes.js"

/** Where an operation's call input comes from, worked out once per operation. */
export interface InputPlaces {
  /** The fields of its input, by which query values are read. */
  readonly fields: InputFields
  /** Every `{parameter}` of its route template: none of them may come in the query or body too. */
  readonly inPath: ReadonlyArray<string>
  /** The parameters of its own path (not the scope's `org` and `playbook`), which are fields of its input. */
  readonly own: ReadonlyArray<string>
}

/** The places of an operation's input. */
export const inputPlacesOf = (operation: Operation): InputPlaces => ({
  fields: inputFields(operation),
  inPath: parameterNames(routeTemplate(operation)),
  own: parameterNames(operation.route.path)
})

/** Whether a request carries a body, by its headers or its bytes. */
const hasBody = (request: Request): Effect.Effect<boolean> => {
  const length = request.headers.get("content-length")
  if ((length !== null && length.trim() !== "0") || request.headers.has("transfer-encoding"))
    return Effect.succeed(true)
  return readBytes(request, 0).pipe(
    Effect.as(false),
    Effect.orElseSucceed(() => true)
  )
}

/** The query string's fields, each given once and read by its type. */
const queryFields = (url: URL, fields: InputFields): Effect.Effect<Record<string, unknown>, Rejection> => {
  const given = new Map<string, unknown>()
  for (const [key, value] of UrlParams.fromInput(url.searchParams)) {
    if (given.has(key))
      return Effect.fail(badRequest(`The query parameter ${key} is given more than once; give it once.`))
    given.set(
      key,
      coerceQueryValue(value, Object.hasOwn(fields.properties, key) ? fields.properties[key] : undefined, fields.defs)
    )
  }
  return Effect.succeed(Object.fromEntries(given))
}

/**
 * The input of a call as the request gives it (HTTP "Requests and access"): the route's own path fields, with the
 * query string of a GET or DELETE, which takes no body, or the JSON body of a POST or PUT, which takes no query
 * string. A field may come in one place only, and the path's `org` and `playbook` are places too.
 */
export const callInput = (
  request: Request,
  url: URL,
  operation: Operation,
  parameters: Readonly<Record<string, string>>,
  places: InputPlaces
): Effect.Effect<Record<string, unknown>, Rejection> =>
  Effect.gen(function* () {
    const method = operation.route.method
    let given: Record<string, unknown>
    if (takesQuery(operation)) {
      if (yield* hasBody(request)) return yield* Effect.fail(badRequest(`A ${method} request takes no body.`))
      given = yield* queryFields(url, places.fields)
    } else {
      if (url.search !== "")
        return yield* Effect.fail(badRequest(`A ${method} request takes its input in the body, not the query string.`))
      given = yield* jsonBody(request)
    }
    const inPath = places.inPath.filter((name) => Object.hasOwn(given, name))
    if (inPath.length > 0)
      return yield* Effect.fail(badRequest(`${inPath.join(" and ")} is given in the path; give it there only.`))
    const own = Object.fromEntries(places.own.map((name) => [name, parameters[name]]))
    return { ...given, ...own }
  })
