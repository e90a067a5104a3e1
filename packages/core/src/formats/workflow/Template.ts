import type { Expression } from "./Expression.js"

/**
 * A value written in a workflow whose strings may be expressions (workflow-format.md §6.1): `set` bodies, call
 * inputs, emitted events, error fields, the mapping forms of `input.from`, `output.as` and `export.as`. A part
 * holding no expression is one `Literal`, copied as is; the others are evaluated part by part.
 */
export type Template =
  | { readonly _tag: "Literal"; readonly value: unknown }
  | Expression
  | { readonly _tag: "List"; readonly items: ReadonlyArray<Template> }
  | { readonly _tag: "Mapping"; readonly entries: ReadonlyArray<readonly [string, Template]> }
