import { Schema } from "effect"
import { type DefinitionType, definitionTypes } from "../../definitions/DefinitionType.js"
import { DefinitionName } from "../../definitions/definitionFields.js"
import { describeValue } from "../document/describeValue.js"
import { pointerSegment, requiredKeyWords } from "../document/Place.js"
import type { EventFilter } from "./EventFilter.js"
import { isPartialExpression, wrappedCode } from "./Expression.js"
import { asRecord, issueAt, keyIssueAt, placeOf, type Reading, readFields } from "./Reading.js"
import { readDuration } from "./readDuration.js"
import { readError, readErrorFilter } from "./readError.js"
import { readEventFilter } from "./readEventFilter.js"
import { readExpression } from "./readExpression.js"
import { readRetry } from "./readRetryPolicy.js"
import { partialWords, readCondition, readTemplate } from "./readTemplate.js"
import { reservedAttributes, reservedEventTypes, reservedSourcePrefixes } from "./reservedEvents.js"
import { givenNames, type TaskScopes, taskScopes, variableName } from "./Scope.js"
import type { Catch, SwitchCase, TaskBody, TaskKind, TaskList } from "./Task.js"
import type { Flow } from "./TaskCommon.js"
import type { Use } from "./Use.js"

/** The most branches a fork holds (workflow-format.md §10.2, §15). */
export const maxForkBranches = 32

/** Calls of the DSL this runtime refuses: workflows reach the world only through playbook functions (§13). */
const outsideCalls = new Set(["http", "grpc", "openapi", "asyncapi", "a2a", "mcp"])

/** How a task body reads what it needs from its surroundings. */
export interface BodyContext {
  readonly reading: Reading
  readonly use: Use
  /** The task's definition, already checked to hold only the keys its kind takes. */
  readonly fields: Readonly<Record<string, unknown>>
  /** The task's reference. */
  readonly pointer: string
  readonly scopes: TaskScopes
  /** Reads a nested task list, with the variables it adds and whether it is a fork's branches. */
  readonly list: (value: unknown, pointer: string, added: ReadonlyArray<string>, branches?: boolean) => TaskList
  /** Reads a `then` of the list that holds the task. */
  readonly flow: (value: unknown, pointer: string) => Flow
}

/** Reads a variable name given without `$` (`for.each`, `for.at`, `catch.as`), defaulting to `fallback`. */
const readVariable = (reading: Reading, value: unknown, pointer: string, fallback: string): string => {
  if (value === undefined) return fallback
  if (typeof value !== "string" || !variableName.test(value)) {
    issueAt(
      reading,
      pointer,
      `a variable name is letters, digits and underscores, written without $; found ${describeValue(value)}`
    )
    return fallback
  }
  if (givenNames.has(value)) {
    issueAt(reading, pointer, `$${value} is a variable the runtime gives; choose another name`)
    return fallback
  }
  return value
}

/** Reads a `with.type` or `with.name` of a call: an expression, or a literal checked now (decision W12). */
const readCallPart = <A extends string>(
  context: BodyContext,
  value: unknown,
  pointer: string,
  valid: (text: string) => text is A,
  words: string
) => {
  const { reading } = context
  if (typeof value === "string" && wrappedCode(value) !== undefined) {
    const wrapped = wrappedCode(value)!
    return readExpression(reading, { pointer, text: value, index: wrapped.index }, wrapped.code, context.scopes.body)
  }
  if (typeof value === "string" && isPartialExpression(value)) issueAt(reading, pointer, partialWords)
  else if (typeof value !== "string" || !valid(value))
    issueAt(reading, pointer, `${words}, found ${describeValue(value)}`)
  else return value
  return undefined
}

const isDefinitionType = (text: string): text is DefinitionType =>
  (definitionTypes as ReadonlyArray<string>).includes(text)
const isDefinitionName = Schema.is(DefinitionName) as (text: string) => text is string

const readCall = (context: BodyContext): TaskBody | undefined => {
  const { reading, fields, pointer } = context
  const call = fields.call
  if (call !== "run_definition") {
    issueAt(
      reading,
      `${pointer}/call`,
      typeof call === "string" && outsideCalls.has(call)
        ? `call: ${call} is refused; workflows reach the world only through playbook functions: call run_definition`
        : `the only call is run_definition, found ${describeValue(call)}`
    )
    return undefined
  }
  const withFields = readFields(
    reading,
    fields.with,
    `${pointer}/with`,
    placeOf(["type", "name", "input"], ["type", "name"])
  )
  if (withFields === undefined) return undefined
  const type = readCallPart(
    context,
    withFields.type,
    `${pointer}/with/type`,
    isDefinitionType,
    `with.type is one of ${definitionTypes.join(", ")}`
  )
  const name = readCallPart(
    context,
    withFields.name,
    `${pointer}/with/name`,
    isDefinitionName,
    "with.name is 3 to 48 lowercase letters, digits and hyphens, beginning with a letter"
  )
  const input =
    withFields.input === undefined
      ? ({ _tag: "Literal", value: {} } as const)
      : readTemplate(reading, withFields.input, `${pointer}/with/input`, context.scopes.body)
  return type === undefined || name === undefined ? undefined : { kind: "call", type, name, input }
}

const readSwitch = (context: BodyContext): TaskBody | undefined => {
  const { reading, pointer } = context
  const cases = context.fields.switch
  if (!Array.isArray(cases) || cases.length === 0) {
    issueAt(reading, `${pointer}/switch`, `a switch lists one or more cases, found ${describeValue(cases)}`)
    return undefined
  }
  const read: Array<SwitchCase> = []
  const names = new Map<string, number>()
  let defaultAt: number | undefined
  cases.forEach((item, index) => {
    const at = `${pointer}/switch/${index}`
    const entry = asRecord(item)
    const [name] = Object.keys(entry ?? {})
    if (entry === undefined || Object.keys(entry).length !== 1) {
      issueAt(reading, at, `a case is a mapping with one key, its name, found ${describeValue(item)}`)
      return
    }
    const caseAt = `${at}/${pointerSegment(name!)}`
    const earlier = names.get(name!)
    if (earlier !== undefined)
      keyIssueAt(
        reading,
        caseAt,
        `the case name ${JSON.stringify(name)} is taken by case ${earlier}; case names are unique within their switch`
      )
    names.set(name!, index)
    const fields = readFields(reading, entry[name!], caseAt, placeOf(["when", "then"], ["then"]))
    if (fields === undefined || fields.then === undefined) return
    if (fields.when === undefined && defaultAt !== undefined) {
      issueAt(reading, caseAt, `a switch has one default case (without when); case ${defaultAt} is already one`)
    }
    if (fields.when === undefined) defaultAt ??= index
    const when =
      fields.when === undefined ? undefined : readCondition(reading, fields.when, `${caseAt}/when`, context.scopes.body)
    read.push({
      name: name!,
      ...(when === undefined ? {} : { when }),
      // biome-ignore lint/suspicious/noThenProperty: the DSL names a case's flow then
      then: context.flow(fields.then, `${caseAt}/then`)
    })
  })
  return read.length === cases.length ? { kind: "switch", cases: read } : undefined
}

const readFor = (context: BodyContext): TaskBody | undefined => {
  const { reading, pointer, fields } = context
  const loop = readFields(reading, fields.for, `${pointer}/for`, placeOf(["each", "in", "at"], ["in"]))
  if (loop === undefined) return undefined
  const each = readVariable(reading, loop.each, `${pointer}/for/each`, "item")
  const at = readVariable(reading, loop.at, `${pointer}/for/at`, "index")
  if (each === at)
    issueAt(reading, `${pointer}/for/at`, `for.each and for.at both name $${each}; give them different names`)
  const added = [...context.scopes.added, `$${each}`, `$${at}`]
  const within = taskScopes(added)
  const list =
    loop.in === undefined ? undefined : readCondition(reading, loop.in, `${pointer}/for/in`, context.scopes.body)
  const condition =
    fields.while === undefined ? undefined : readCondition(reading, fields.while, `${pointer}/while`, within.body)
  const body = context.list(fields.do, `${pointer}/do`, added)
  return list === undefined
    ? undefined
    : { kind: "for", each, at, in: list, ...(condition === undefined ? {} : { while: condition }), do: body }
}

const readFork = (context: BodyContext): TaskBody | undefined => {
  const { reading, pointer } = context
  const fork = readFields(
    reading,
    context.fields.fork,
    `${pointer}/fork`,
    placeOf(["branches", "compete"], ["branches"])
  )
  if (fork?.branches === undefined) return undefined
  if (Array.isArray(fork.branches) && fork.branches.length > maxForkBranches) {
    issueAt(
      reading,
      `${pointer}/fork/branches`,
      `a fork holds at most ${maxForkBranches} branches, found ${fork.branches.length}`
    )
    return undefined
  }
  if (fork.compete !== undefined && typeof fork.compete !== "boolean") {
    issueAt(reading, `${pointer}/fork/compete`, `expected true or false, found ${describeValue(fork.compete)}`)
  }
  const branches = context.list(fork.branches, `${pointer}/fork/branches`, context.scopes.added, true)
  return { kind: "fork", branches, compete: fork.compete === true }
}

const catchPlace = placeOf(["errors", "as", "when", "exceptWhen", "retry", "do"])

const readTry = (context: BodyContext): TaskBody | undefined => {
  const { reading, pointer, fields, use } = context
  const attempt = context.list(fields.try, `${pointer}/try`, context.scopes.added)
  const at = `${pointer}/catch`
  const handler = readFields(reading, fields.catch, at, catchPlace)
  if (handler === undefined) return undefined
  const as = readVariable(reading, handler.as, `${at}/as`, "error")
  const added = [...context.scopes.added, `$${as}`]
  const scope = taskScopes(added).body
  const errors = handler.errors === undefined ? undefined : readErrorFilter(reading, handler.errors, `${at}/errors`)
  const when = handler.when === undefined ? undefined : readCondition(reading, handler.when, `${at}/when`, scope)
  const exceptWhen =
    handler.exceptWhen === undefined ? undefined : readCondition(reading, handler.exceptWhen, `${at}/exceptWhen`, scope)
  const retry = handler.retry === undefined ? undefined : readRetry(reading, use, handler.retry, `${at}/retry`, scope)
  const recovery = handler.do === undefined ? undefined : context.list(handler.do, `${at}/do`, added)
  const read: Catch = {
    as,
    ...(errors === undefined ? {} : { errors }),
    ...(when === undefined ? {} : { when }),
    ...(exceptWhen === undefined ? {} : { exceptWhen }),
    ...(retry === undefined ? {} : { retry }),
    ...(recovery === undefined ? {} : { do: recovery })
  }
  return { kind: "try", try: attempt, catch: read }
}

const readFilters = (reading: Reading, value: unknown, pointer: string): ReadonlyArray<EventFilter> => {
  if (!Array.isArray(value) || value.length === 0) {
    issueAt(reading, pointer, `expected a list of one or more filters, found ${describeValue(value)}`)
    return []
  }
  return value.flatMap((item, index) => readEventFilter(reading, item, `${pointer}/${index}`, false) ?? [])
}

const reads = ["data", "envelope", "raw"] as const

const readListen = (context: BodyContext): TaskBody | undefined => {
  const { reading, pointer } = context
  const listen = readFields(reading, context.fields.listen, `${pointer}/listen`, placeOf(["to", "read"], ["to"]))
  if (listen?.to === undefined) return undefined
  const at = `${pointer}/listen/to`
  const to = readFields(
    reading,
    listen.to,
    at,
    placeOf(["one", "any", "all"], [], { until: "a listen ends when its events are taken" })
  )
  if (to === undefined) return undefined
  const ways = (["one", "any", "all"] as const).filter((way) => way in to)
  if (ways.length !== 1) {
    issueAt(reading, at, "listen.to names exactly one of one, any or all")
    return undefined
  }
  const way = ways[0]!
  const filters =
    way === "one"
      ? [readEventFilter(reading, to.one, `${at}/one`, false)].flatMap((filter) => filter ?? [])
      : readFilters(reading, to[way], `${at}/${way}`)
  const read = listen.read ?? "data"
  if (!reads.includes(read as (typeof reads)[number])) {
    issueAt(
      reading,
      `${pointer}/listen/read`,
      `listen.read is one of data, envelope, raw, found ${describeValue(read)}`
    )
    return undefined
  }
  return { kind: "listen", to: way, filters, read: read as (typeof reads)[number] }
}

const absoluteUri = /^[A-Za-z][A-Za-z0-9+.-]*:/

const readEmit = (context: BodyContext): TaskBody | undefined => {
  const { reading, pointer } = context
  const emit = readFields(reading, context.fields.emit, `${pointer}/emit`, placeOf(["event"], ["event"]))
  const event =
    emit?.event === undefined
      ? undefined
      : readFields(reading, emit.event, `${pointer}/emit/event`, placeOf(["with"], ["with"]))
  if (event?.with === undefined) return undefined
  const at = `${pointer}/emit/event/with`
  const attributes = asRecord(event.with)
  if (attributes === undefined) {
    issueAt(reading, at, `expected a mapping of event attributes, found ${describeValue(event.with)}`)
    return undefined
  }
  for (const key of ["type", "source"]) if (!(key in attributes)) issueAt(reading, at, requiredKeyWords(key))
  const literal = (key: string) => {
    const value = attributes[key]
    return typeof value === "string" && wrappedCode(value) === undefined ? value : undefined
  }
  for (const key of Object.keys(attributes)) {
    const keyAt = `${at}/${pointerSegment(key)}`
    if (key === "id")
      keyIssueAt(reading, keyAt, "an emitted event's id is made by the runtime, so a resumed run emits once; remove id")
    if (reservedAttributes.has(key))
      keyIssueAt(reading, keyAt, `the attribute ${key} is one the runtime gives its events`)
  }
  for (const key of ["type", "source"]) {
    const value = attributes[key]
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) {
      issueAt(reading, `${at}/${key}`, `expected text, found ${describeValue(value)}`)
    }
  }
  const type = literal("type")
  if (type !== undefined && reservedEventTypes.has(type)) {
    issueAt(reading, `${at}/type`, `the type ${type} is one the runtime records itself; choose another`)
  }
  const source = literal("source")
  if (source !== undefined && reservedSourcePrefixes.some((prefix) => source.startsWith(prefix))) {
    issueAt(reading, `${at}/source`, `sources beginning ${reservedSourcePrefixes.join(", ")} are the runtime's own`)
  } else if (source !== undefined && source.trim() !== "" && !absoluteUri.test(source)) {
    issueAt(
      reading,
      `${at}/source`,
      `a written source is an absolute URI such as https://example.com/invoices; write a relative one as an expression: '\${ "${source}" }'`
    )
  }
  return { kind: "emit", event: readTemplate(reading, attributes, at, context.scopes.body) }
}

/** Reads what a task does, by its kind (workflow-format.md §3.2, §7–§11); `undefined` when refused. */
export const readTaskBody = (kind: TaskKind, context: BodyContext): TaskBody | undefined => {
  const { reading, fields, pointer, scopes } = context
  switch (kind) {
    case "call":
      return readCall(context)
    case "set": {
      const set = asRecord(fields.set)
      if (set === undefined || Object.keys(set).length === 0) {
        issueAt(
          reading,
          `${pointer}/set`,
          `set takes a mapping of one or more values, found ${describeValue(fields.set)}`
        )
        return undefined
      }
      return { kind: "set", set: readTemplate(reading, set, `${pointer}/set`, scopes.body) }
    }
    case "do":
      return { kind: "do", do: context.list(fields.do, `${pointer}/do`, scopes.added) }
    case "switch":
      return readSwitch(context)
    case "for":
      return readFor(context)
    case "fork":
      return readFork(context)
    case "try":
      return readTry(context)
    case "raise": {
      const raise = readFields(reading, fields.raise, `${pointer}/raise`, placeOf(["error"], ["error"]))
      const error =
        raise?.error === undefined
          ? undefined
          : readError(reading, context.use, raise.error, `${pointer}/raise/error`, scopes.body)
      return error === undefined ? undefined : { kind: "raise", error }
    }
    case "wait": {
      const duration = readDuration(reading, fields.wait, `${pointer}/wait`, scopes.body)
      return duration === undefined ? undefined : { kind: "wait", duration }
    }
    case "listen":
      return readListen(context)
    case "emit":
      return readEmit(context)
  }
}
