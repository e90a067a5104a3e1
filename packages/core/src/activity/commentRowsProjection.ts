import { readAddress } from "../comments/CommentAddress.js"
import { scopeOfStream } from "../comments/CommentScope.js"
import type { CommentMade } from "../comments/commentFacts.js"
import type { Projection } from "../ports/Views.js"
import { type ActivityItem, itemOf, type RowDefinition } from "./ActivityRow.js"
import { firstLine } from "./clip.js"
import { heldDoc, listedDoc } from "./rowDoc.js"

/** The view of the org's comments as rows: partition the org, one document per comment, listed while open. */
export const commentRowsView = "activity_comments"

/** The definition and the run a comment's address names, a step's workflow and an event's, block's or request's run. */
export const namedByAddress = (
  address: string,
  playbook: string | null
): { readonly definition: RowDefinition | null; readonly run_id: string | null } => {
  const reading = readAddress(address).find((candidate) =>
    playbook === null ? !("playbook" in candidate) : "playbook" in candidate && candidate.playbook === playbook
  )
  switch (reading?.kind) {
    case "definition":
      return {
        definition:
          reading.version === undefined ? null : { type: reading.type, name: reading.name, version: reading.version },
        run_id: null
      }
    case "step":
      return { definition: { type: "workflow", name: reading.name, version: reading.version }, run_id: null }
    case "run":
    case "event":
    case "block":
    case "request":
      return { definition: null, run_id: reading.run }
    default:
      return { definition: null, run_id: null }
  }
}

/**
 * Folds comment facts into `comment` rows: made, a row at its time by its maker; resolved, kept but not listed;
 * reopened, listed again at the time it was reopened, seen from the start by who reopened it.
 */
export const commentRowsProjection: Projection = {
  view: commentRowsView,
  types: ["comment_made", "comment_resolved", "comment_reopened"],
  keys: (fact) => {
    const found = scopeOfStream(fact.metadata.stream)
    if (found === undefined) return []
    const owner = found.scope.kind === "playbook" ? found.scope.playbook : "org"
    return [{ view: commentRowsView, partition: found.scope.org, id: `${owner}/comments/${found.id}` }]
  },
  apply: (current, fact, key) => {
    const { at, by } = fact.metadata
    const item = current?.data as ActivityItem | undefined
    switch (fact.type) {
      case "comment_made": {
        const made = fact.data as Partial<CommentMade> | null
        if (typeof made?.address !== "string" || typeof made.text !== "string") return current
        const playbook = scopeOfStream(fact.metadata.stream)?.scope.kind === "playbook" ? key.id.split("/")[0] : null
        return listedDoc(
          itemOf({
            kind: "comment",
            address: key.id,
            playbook,
            at,
            by,
            seen_by: by,
            by_name: made.by_name ?? null,
            message: firstLine(made.text),
            about: made.address,
            ...namedByAddress(made.address, playbook)
          })
        )
      }
      case "comment_resolved":
        return item && heldDoc(key.id, item)
      case "comment_reopened":
        return item && listedDoc({ ...item, at, seen_by: by })
      default:
        return current
    }
  }
}
