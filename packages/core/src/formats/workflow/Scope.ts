/**
 * The variables an expression's place provides (workflow-format.md §5.2), with `$`. A task's scope carries the
 * names its enclosing `for` bodies and `catch.do` lists add (`$item`, `$index`, `$error` or their renamings).
 */
export type Scope = ReadonlySet<string>

/** The names every run expression sees. */
const run = ["$workflow", "$runtime"]

/** The names every task expression sees besides `$data`, `$input` and `$output`. */
const task = ["$context", "$task", ...run]

/** The scopes of the places of one task, given the names its enclosing lists add. */
export interface TaskScopes {
  /** `if`, `timeout`, `input.from`: the raw input, no `$input`. */
  readonly before: Scope
  /** The body, `output.as`, switch `when`, `for.in`: with `$input`. */
  readonly body: Scope
  /** `export.as`: with `$input` and `$output`. */
  readonly exportAs: Scope
  /** What the enclosing lists add, for the lists inside this task. */
  readonly added: ReadonlyArray<string>
}

/** The scopes of a task whose enclosing lists add `added`. */
export const taskScopes = (added: ReadonlyArray<string>): TaskScopes => ({
  before: new Set(["$data", ...task, ...added]),
  body: new Set(["$data", "$input", ...task, ...added]),
  exportAs: new Set(["$data", "$input", "$output", ...task, ...added]),
  added
})

/** The document's `input.from` and `output.as`: the run's data, no task. */
export const documentScope: Scope = new Set(["$data", ...run])

/** Event filters of a listen or a trigger: the attribute as `$data`, nothing else (§8.2, §12.2). */
export const filterScope: Scope = new Set(["$data"])

/** The names the runtime gives, which `for.each`, `for.at` and `catch.as` may not take. */
export const givenNames: ReadonlySet<string> = new Set(
  ["$data", "$input", "$output", ...task].map((name) => name.slice(1))
)

/** The rule of names written without `$` (§5.2): letters, digits and underscores. */
export const variableName = /^[A-Za-z0-9_]+$/
