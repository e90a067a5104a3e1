/**
 * Rows of cells as a text table: the header, a rule, then a line per row, each column as wide as its widest cell;
 * the `numeric` columns (by index) are aligned right, the others left.
 */
export const textTable = (
  header: ReadonlyArray<string>,
  cells: ReadonlyArray<ReadonlyArray<string>>,
  numeric: ReadonlySet<number> = new Set()
): string => {
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)))
  const format = (line: ReadonlyArray<string>) =>
    line
      .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join(" | ")
  return [format(header), widths.map((width) => "-".repeat(width)).join("-|-"), ...cells.map(format)].join("\n")
}
