import type { Expression } from "./Expression.js"

/** What one attribute of an event must be: equal to a literal, or an expression over the attribute as `$data`. */
export type FilterValue = { readonly _tag: "Literal"; readonly value: unknown } | Expression

/** An event filter of a `listen` or of an event trigger (workflow-format.md §8.2): attributes in written order. */
export interface EventFilter {
  /** The filter's JSON pointer in the document. */
  readonly reference: string
  readonly attributes: ReadonlyArray<readonly [string, FilterValue]>
}
