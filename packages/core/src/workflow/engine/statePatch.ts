import type { RunStateData } from "./Interpreter.js"
import { copyJson, setMember } from "./jsonValues.js"

/** One operation of an RFC 6902 JSON Patch, of the three a state change needs. */
export type StatePatchOperation =
  | { readonly op: "add"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string }
  | { readonly op: "replace"; readonly path: string; readonly value: unknown }

/** A state change: RFC 6902 operations applied in order. */
export type StatePatch = ReadonlyArray<StatePatchOperation>

const escape = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1")
const unescape = (segment: string): string => segment.replaceAll("~1", "/").replaceAll("~0", "~")

type JsonObject = Record<string, unknown>

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Whether `after`'s keys are `before`'s kept keys in the same order, then the new ones: then members diff alone. */
const keepsOrder = (before: ReadonlyArray<string>, after: ReadonlyArray<string>, afterObject: JsonObject): boolean => {
  const kept = before.filter((key) => Object.hasOwn(afterObject, key))
  return kept.every((key, index) => after[index] === key)
}

/** Where a diff stands: the keys down from the root, written as a pointer only when an operation needs it. */
interface PathNode {
  readonly parent: PathNode | undefined
  readonly key: string
}

const pointerOf = (node: PathNode | undefined): string =>
  node === undefined ? "" : `${pointerOf(node.parent)}/${escape(node.key)}`

const diffInto = (
  before: unknown,
  after: unknown,
  path: PathNode | undefined,
  operations: Array<StatePatchOperation>
): void => {
  if (before === after) return
  if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length)
    for (let index = 0; index < common; index += 1)
      diffInto(before[index], after[index], { parent: path, key: String(index) }, operations)
    for (let index = common; index < after.length; index += 1) {
      operations.push({ op: "add", path: `${pointerOf(path)}/${index}`, value: after[index] })
    }
    for (let index = before.length - 1; index >= after.length; index -= 1) {
      operations.push({ op: "remove", path: `${pointerOf(path)}/${index}` })
    }
    return
  }
  if (isObject(before) && isObject(after)) {
    const beforeKeys = Object.keys(before)
    const afterKeys = Object.keys(after)
    if (!keepsOrder(beforeKeys, afterKeys, after)) {
      operations.push({ op: "replace", path: pointerOf(path), value: after })
      return
    }
    for (const key of beforeKeys) {
      if (!Object.hasOwn(after, key)) operations.push({ op: "remove", path: pointerOf({ parent: path, key }) })
      else diffInto(before[key], after[key], { parent: path, key }, operations)
    }
    for (const key of afterKeys) {
      if (!Object.hasOwn(before, key))
        operations.push({ op: "add", path: pointerOf({ parent: path, key }), value: after[key] })
    }
    return
  }
  operations.push({ op: "replace", path: pointerOf(path), value: after })
}

/**
 * The change from one run state to the next as an RFC 6902 JSON Patch (ADR 0252): members and items diffed in
 * place, an object whose key order changed replaced whole, so applying the patch rebuilds the state exactly,
 * key order included.
 */
export const diffState = (before: RunStateData | undefined, after: RunStateData): StatePatch => {
  const operations: Array<StatePatchOperation> = []
  diffInto(before, after, undefined, operations)
  return operations
}

/** A value of a patch as the state keeps it: objects and arrays copied, so the state never shares the fact's. */
const copied = copyJson

/** A shallow copy of an object or array, its members in the same order. */
const shallow = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.slice()
  const copy: JsonObject = {}
  for (const key of Object.keys(value as JsonObject)) setMember(copy, key, (value as JsonObject)[key])
  return copy
}

/** The objects and arrays one patch made: its own, so its later operations change them in place. */
type Made = WeakSet<object>

/** `value` if this patch made it, else a shallow copy of it, then made by this patch. */
const ownCopy = (value: unknown, made: Made): unknown => {
  if (made.has(value as object)) return value
  const copy = shallow(value)
  made.add(copy as object)
  return copy
}

const childOf = (parent: unknown, segment: string): unknown =>
  Array.isArray(parent) ? parent[Number(segment)] : (parent as JsonObject)[segment]

const setChild = (parent: unknown, segment: string, child: unknown): void => {
  if (Array.isArray(parent)) parent[Number(segment)] = child
  else setMember(parent as JsonObject, segment, child)
}

/**
 * Applies one operation, copying the objects on its path that the patch has not copied yet (each at most once per
 * patch): what the patch leaves alone stays shared with the state it was applied to, which is never changed.
 */
const applyOperation = (document: unknown, operation: StatePatchOperation, made: Made): unknown => {
  if (operation.path === "") return operation.op === "remove" ? undefined : copied(operation.value)
  const segments = operation.path.slice(1).split("/").map(unescape)
  const last = segments.pop()!
  const root = ownCopy(document, made)
  let parent = root
  for (const segment of segments) {
    const child = ownCopy(childOf(parent, segment), made)
    setChild(parent, segment, child)
    parent = child
  }
  if (Array.isArray(parent)) {
    const index = last === "-" ? parent.length : Number(last)
    if (operation.op === "add") parent.splice(index, 0, copied(operation.value))
    else if (operation.op === "remove") parent.splice(index, 1)
    else parent[index] = copied(operation.value)
    return root
  }
  const object = parent as JsonObject
  if (operation.op === "remove") delete object[last]
  else setMember(object, last, copied(operation.value))
  return root
}

/**
 * A state rebuilt from the one before and the recorded patch, evaluating nothing (workflow-format.md §16.1). The
 * given state is left as it was; the new one shares what the patch did not touch, so neither may be changed in
 * place (the interpreter changes a deep copy).
 */
export const applyStatePatch = (state: RunStateData | undefined, patch: StatePatch): RunStateData => {
  const made: Made = new WeakSet()
  return patch.reduce<unknown>(
    (document, operation) => applyOperation(document, operation, made),
    state
  ) as RunStateData
}

/** The state change each patch the interpreter made in this process stands for, by the patch's identity. */
const madeChanges = new WeakMap<
  StatePatch,
  { readonly before: RunStateData | undefined; readonly after: RunStateData }
>()

/**
 * Remembers that the interpreter took `before` to `after` with `patch` (the two equal as `applyStatePatch` would
 * make them, which the replay property test holds), so that folding the fact it records here applies nothing again.
 */
export const rememberStateChange = (patch: StatePatch, before: RunStateData | undefined, after: RunStateData): void => {
  madeChanges.set(patch, { before, after })
}

/**
 * `applyStatePatch`, answering at once the state the interpreter made when `patch` is one it made here from this
 * very `state`; anything else (a fact read back, another instance's) is applied.
 */
export const stateAfterPatch = (state: RunStateData | undefined, patch: StatePatch): RunStateData => {
  const made = madeChanges.get(patch)
  return made !== undefined && made.before === state ? made.after : applyStatePatch(state, patch)
}
