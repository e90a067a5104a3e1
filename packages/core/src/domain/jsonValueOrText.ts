/** The JSON value a text holds, or the text itself when it is not JSON: how a kept or answered text is shown. */
export const jsonValueOrText = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
