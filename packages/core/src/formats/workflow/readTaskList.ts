import { describeValue } from "../document/describeValue.js"
import { pointerSegment } from "../document/Place.js"
import { asRecord, issueAt, keyIssueAt, placeOf, type Reading, readFields } from "./Reading.js"
import { readTaskBody } from "./readTaskBody.js"
import { readCondition, readTransform } from "./readTemplate.js"
import { readTimeout } from "./readTimeout.js"
import { taskScopes } from "./Scope.js"
import type { Task, TaskKind, TaskList } from "./Task.js"
import type { Flow } from "./TaskCommon.js"
import type { Use } from "./Use.js"

/** The keys every task takes (workflow-format.md §3.1); `metadata` is DSL-valid and ignored. */
const commonKeys = ["if", "input", "output", "export", "timeout", "then", "metadata"]

/** The keys each kind adds to the common ones, its kind-key first (§3.2). */
const kindKeys: Readonly<Record<TaskKind, ReadonlyArray<string>>> = {
  call: ["call", "with"],
  set: ["set"],
  do: ["do"],
  switch: ["switch"],
  for: ["for", "while", "do"],
  fork: ["fork"],
  try: ["try", "catch"],
  raise: ["raise"],
  wait: ["wait"],
  listen: ["listen"],
  emit: ["emit"]
}

const kinds = Object.keys(kindKeys) as ReadonlyArray<TaskKind>

/** Words for keys a task may not hold, whatever its kind. */
const refusedKeys: Readonly<Record<string, string>> = {
  run: "run tasks are not executed by this runtime; call a playbook function with call: run_definition",
  foreach: "listening for a stream of events is not supported"
}

const directives = new Set(["continue", "exit", "end"])

/** The kind of a task definition: the kind-key it holds, `for` and `try` deciding over the `do` they carry. */
const kindOf = (definition: Readonly<Record<string, unknown>>): TaskKind | ReadonlyArray<TaskKind> => {
  if ("for" in definition) return "for"
  if ("try" in definition) return "try"
  const present = kinds.filter((kind) => kind in definition)
  return present.length === 1 ? present[0]! : present
}

/** Where a task list sits: the variables its enclosing lists add, and whether it is inside a fork branch. */
interface ListPlace {
  readonly added: ReadonlyArray<string>
  readonly inBranch: boolean
}

const readFlow = (
  reading: Reading,
  value: unknown,
  pointer: string,
  names: ReadonlyArray<string>,
  place: ListPlace
): Flow => {
  if (value === "continue") return { _tag: "Continue" }
  if (value === "exit") return { _tag: "Exit" }
  if (value === "end") return { _tag: "End" }
  if (typeof value !== "string") {
    issueAt(
      reading,
      pointer,
      `then is continue, exit, end or the name of a task of this list, found ${describeValue(value)}`
    )
  } else if (place.inBranch) {
    issueAt(reading, pointer, "inside a fork branch, then is continue, exit or end; jumping to a task is refused")
  } else if (!names.includes(value)) {
    issueAt(reading, pointer, `this list holds no task named ${JSON.stringify(value)}; it holds ${names.join(", ")}`)
  } else return { _tag: "Jump", task: value, index: names.indexOf(value) }
  return { _tag: "Continue" }
}

const readTask = (
  reading: Reading,
  use: Use,
  name: string,
  value: unknown,
  pointer: string,
  names: ReadonlyArray<string>,
  place: ListPlace
): Task | undefined => {
  const definition = asRecord(value)
  if (definition === undefined) {
    issueAt(reading, pointer, `a task is a mapping that names its kind, found ${describeValue(value)}`)
    return undefined
  }
  const kind = kindOf(definition)
  if (typeof kind !== "string") {
    if (!Object.keys(refusedKeys).some((key) => key in definition)) {
      issueAt(
        reading,
        pointer,
        kind.length === 0
          ? `this task names no kind; give it one of ${kinds.join(", ")}`
          : `a task has one kind, this one names ${kind.join(" and ")}`
      )
    }
    readFields(reading, definition, pointer, placeOf([...commonKeys, ...kinds], [], refusedKeys))
    return undefined
  }
  const fields = readFields(reading, definition, pointer, placeOf([...commonKeys, ...kindKeys[kind]], [], refusedKeys))!
  const scopes = taskScopes(place.added)
  const part = (key: string, inner: string) => {
    const mapping = fields[key]
    if (mapping === undefined) return undefined
    const read = readFields(
      reading,
      mapping,
      `${pointer}/${key}`,
      placeOf([inner], [], { schema: "task schemas are not checked; describe the document's input and output instead" })
    )
    return read?.[inner]
  }
  const transform = (key: string, inner: string, scope: ReadonlySet<string>) => {
    const written = part(key, inner)
    return written === undefined ? undefined : readTransform(reading, written, `${pointer}/${key}/${inner}`, scope)
  }
  const condition =
    fields.if === undefined ? undefined : readCondition(reading, fields.if, `${pointer}/if`, scopes.before)
  const inputFrom = transform("input", "from", scopes.before)
  const outputAs = transform("output", "as", scopes.body)
  const exportAs = transform("export", "as", scopes.exportAs)
  const timeout =
    fields.timeout === undefined
      ? undefined
      : readTimeout(reading, use, fields.timeout, `${pointer}/timeout`, scopes.before)
  const flow = (written: unknown, at: string) => readFlow(reading, written, at, names, place)
  const then = fields.then === undefined ? ({ _tag: "Continue" } as const) : flow(fields.then, `${pointer}/then`)
  const body = readTaskBody(kind, {
    reading,
    use,
    fields,
    pointer,
    scopes,
    flow,
    list: (list, at, added, branches = false) =>
      readTaskList(reading, use, list, at, { added, inBranch: place.inBranch || branches })
  })
  if (body === undefined) return undefined
  return {
    name,
    reference: pointer,
    ...(condition === undefined ? {} : { if: condition }),
    ...(inputFrom === undefined ? {} : { inputFrom }),
    ...(outputAs === undefined ? {} : { outputAs }),
    ...(exportAs === undefined ? {} : { exportAs }),
    ...(timeout === undefined ? {} : { timeout }),
    then,
    body
  }
}

/**
 * Reads a task list (workflow-format.md §2, §3): a list of one or more mappings of one key, the task's name,
 * unique within the list (decision W13) and none of `continue`, `exit`, `end`; each task is read with the
 * variables its enclosing lists add. Tasks refused are left out; their issues say why.
 */
export const readTaskList = (
  reading: Reading,
  use: Use,
  value: unknown,
  pointer: string,
  place: ListPlace
): TaskList => {
  if (!Array.isArray(value) || value.length === 0) {
    issueAt(reading, pointer, `expected a list of one or more tasks, found ${describeValue(value)}`)
    return []
  }
  const names = value.map((item) => {
    const entry = asRecord(item)
    return entry !== undefined && Object.keys(entry).length === 1 ? Object.keys(entry)[0]! : ""
  })
  return value.flatMap((item, index) => {
    const at = `${pointer}/${index}`
    const name = names[index]!
    if (name === "") {
      issueAt(reading, at, `a task is a mapping with one key, its name, found ${describeValue(item)}`)
      return []
    }
    const taskAt = `${at}/${pointerSegment(name)}`
    const earlier = names.indexOf(name)
    if (earlier < index) {
      keyIssueAt(
        reading,
        taskAt,
        `the name ${JSON.stringify(name)} is taken by task ${earlier} of this list; task names are unique within their list`
      )
      return []
    }
    if (directives.has(name)) {
      keyIssueAt(reading, taskAt, `a task may not be named ${name}, which then reads as a flow directive`)
      return []
    }
    return readTask(reading, use, name, (item as Record<string, unknown>)[name], taskAt, names, place) ?? []
  })
}
