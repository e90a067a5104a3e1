import type { ChangesAnswer } from "./Change.js"

/** The words of a changes answer. */
export const changesSummary = ({ changes, more }: ChangesAnswer): string =>
  changes.length === 0
    ? "Nothing changed; ask again with the cursor."
    : `${changes.length} resource${changes.length === 1 ? "" : "s"} changed${more ? "; more changed already, so ask again at once with the cursor" : ""}.`
