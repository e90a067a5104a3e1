/** The most characters a row's message or detail holds. */
export const rowTextBound = 200

/** Cuts text to 200 characters, 199 and an ellipsis where it is longer, counting code points. */
export const clip = (text: string): string => {
  const characters = Array.from(text)
  return characters.length <= rowTextBound ? text : `${characters.slice(0, rowTextBound - 1).join("")}…`
}

/** The first line of a text, cut to 200 characters. */
export const firstLine = (text: string): string => clip(text.split(/\r\n|\r|\n/, 1)[0] ?? "")
