import { pointerSegment } from "../document/Place.js"
import { asRecord, issueAt, type Reading } from "./Reading.js"

/** The sections of `use` a workflow may name entries of. */
export type UseSection = "errors" | "retries" | "timeouts"

/** A named entry of `use`, found for a reference: its value and pointer. */
export interface UseEntry {
  readonly name: string
  readonly value: unknown
  readonly pointer: string
}

/**
 * The named entries of `use.errors`, `use.retries` and `use.timeouts`, read where they are used (so each is
 * checked in the scope of its use), remembering which were used so the others are checked once on their own.
 */
export interface Use {
  /** The entry a reference at `pointer` names, or `undefined` and an issue there. */
  readonly find: (reading: Reading, section: UseSection, name: string, pointer: string) => UseEntry | undefined
  /** The entries no reference named. */
  readonly unused: (section: UseSection) => ReadonlyArray<UseEntry>
}

/** The entries of the document's `use` (already checked to be a mapping of mappings). */
export const makeUse = (use: Readonly<Record<string, unknown>> | undefined): Use => {
  const used = new Set<string>()
  const entries = (section: UseSection): ReadonlyArray<UseEntry> =>
    Object.entries(asRecord(use?.[section]) ?? {}).map(([name, value]) => ({
      name,
      value,
      pointer: `/use/${section}/${pointerSegment(name)}`
    }))
  return {
    find: (reading, section, name, pointer) => {
      const entry = entries(section).find((candidate) => candidate.name === name)
      if (entry === undefined) {
        const names = entries(section).map((candidate) => candidate.name)
        issueAt(
          reading,
          pointer,
          `use.${section} has no entry ${JSON.stringify(name)}; ${names.length === 0 ? "it names none" : `it names ${names.join(", ")}`}`
        )
        return undefined
      }
      used.add(entry.pointer)
      return entry
    },
    unused: (section) => entries(section).filter((entry) => !used.has(entry.pointer))
  }
}
