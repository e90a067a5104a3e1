/**
 * One TypeScript expression of a workflow (workflow-format.md §6): as written, as the JavaScript the interpreter
 * runs (types blanked out at save, so it never compiles TypeScript), and where the document holds it.
 */
export interface Expression {
  readonly _tag: "Expression"
  /** The TypeScript as written, without a `${ }` wrapper. */
  readonly source: string
  /** The JavaScript of the same expression, types erased; evaluate it wrapped in parentheses. */
  readonly script: string
  /** The JSON pointer of the value that holds it. */
  readonly pointer: string
}

/** Where the code of a whole-string `${ … }` starts and what it is. */
export interface WrappedCode {
  readonly code: string
  /** The UTF-16 index of the code's first character in the string as written. */
  readonly index: number
}

/**
 * The code of a string that is one whole expression: its trimmed text starts with `${` and ends with `}`
 * (decision W10). `undefined` for any other string.
 */
export const wrappedCode = (text: string): WrappedCode | undefined => {
  const trimmed = text.trim()
  if (!trimmed.startsWith("${") || !trimmed.endsWith("}")) return undefined
  const index = text.indexOf("${") + 2
  return { code: trimmed.slice(2, -1), index }
}

/** Whether a string holds `${` without being one whole expression: refused at save (decision W10). */
export const isPartialExpression = (text: string): boolean => text.includes("${") && wrappedCode(text) === undefined
