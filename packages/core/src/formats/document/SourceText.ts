/** A line and a column, both 1-based, the column counted in Unicode code points (decision F4). */
export interface Position {
  readonly line: number
  readonly column: number
}

/** Positions in a document's text: turns a UTF-16 offset into a line and a code-point column. */
export interface SourceText {
  readonly positionAt: (offset: number) => Position
}

/** Indexes the line starts of a text once, for many position look-ups. */
export const sourceText = (text: string): SourceText => {
  const starts = [0]
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) === 10) starts.push(index + 1)
  }
  const positionAt = (offset: number): Position => {
    const bounded = Math.max(0, Math.min(offset, text.length))
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle]! <= bounded) low = middle
      else high = middle - 1
    }
    const column = [...text.slice(starts[low], bounded)].length + 1
    return { line: low + 1, column }
  }
  return { positionAt }
}
