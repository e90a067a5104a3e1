import { pointerSegment } from "../document/Place.js"
import { asRecord } from "./Reading.js"

/** The deepest nesting of task lists, the root `do` counting 1 (workflow-format.md §2, §15). */
export const maxTaskListDepth = 64

/** The task lists a task definition holds, by the path from the definition: `do`, `try`, `catch.do`, branches. */
const innerLists = (definition: Readonly<Record<string, unknown>>): ReadonlyArray<readonly [string, unknown]> => [
  ["/do", definition.do],
  ["/try", definition.try],
  ["/catch/do", asRecord(definition.catch)?.do],
  ["/fork/branches", asRecord(definition.fork)?.branches]
]

/**
 * The pointer of the first task list nested deeper than 64 levels under the document's root `do`, if any: checked
 * before anything else, so a document too deep is refused for that alone.
 */
export const tooDeepTaskList = (document: unknown): string | undefined => {
  const pending: Array<readonly [unknown, string, number]> = [[asRecord(document)?.do, "/do", 1]]
  while (pending.length > 0) {
    const [list, pointer, depth] = pending.shift()!
    if (!Array.isArray(list)) continue
    if (depth > maxTaskListDepth) return pointer
    list.forEach((item, index) => {
      for (const [name, value] of Object.entries(asRecord(item) ?? {})) {
        const definition = asRecord(value)
        if (definition === undefined) continue
        for (const [path, inner] of innerLists(definition)) {
          pending.push([inner, `${pointer}/${index}/${pointerSegment(name)}${path}`, depth + 1])
        }
      }
    })
  }
  return undefined
}
