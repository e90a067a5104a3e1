/**
 * The UTF-16 offset, within the raw source text of a YAML scalar, of the character at `index` of its value: the
 * value's characters are matched in order against the raw text, passing over what YAML adds around or between
 * them (quotes, escapes, block headers, indentation, folded line breaks). 0 when they cannot be matched.
 */
export const valueOffset = (raw: string, value: string, index: number): number => {
  let at = raw.startsWith('"') || raw.startsWith("'") ? 1 : 0
  if (raw.startsWith("|") || raw.startsWith(">")) at = raw.indexOf("\n") + 1
  for (let position = 0; position <= Math.min(index, value.length - 1); position++) {
    const found = raw.indexOf(value[position]!, at)
    if (found < 0) return 0
    if (position === index) return found
    at = found + 1
  }
  return at
}
