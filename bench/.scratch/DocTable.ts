import type { ViewDoc, ViewKey } from "@runledger/core"

/** The views' documents in memory, by view, partition and id. */
export type DocTable = Map<string, ViewDoc>

/** The table key of a document: view, partition and id joined by a separator no id holds. */
export const docTableKey = (key: ViewKey): string => `${key.view}\u0000${key.partition}\u0000${key.id}`
