import type { Caller } from "../domain/Caller.js"
import { orgPlaybooksPrefix, playbookFactTypes } from "../playbooks/playbookFacts.js"
import type { OrgChange } from "./Change.js"
import { type ChangeFeed, commentFactTypes } from "./ChangeFeed.js"

/**
 * The org's changes (HTTP "Changes"): its playbooks, each named only to a caller that may access it, and its own
 * comments, named to every caller. Both live on the org's streams, `org/<org>/playbooks/<id>` and
 * `org/<org>/comments/<id>`.
 */
export const orgChangeFeed = (org: string, caller: Caller): ChangeFeed<OrgChange> => {
  const playbooks = orgPlaybooksPrefix(org)
  const comments = `org/${org}/comments/`
  const readable = (stream: string) =>
    stream.startsWith(comments) || (stream.startsWith(playbooks) && caller.mayAccess(stream.slice(playbooks.length)))
  return {
    scope: `changes:${org}`,
    filter: { streamPrefix: `org/${org}/`, types: [...playbookFactTypes, ...commentFactTypes] },
    wakes: readable,
    names: (fact) => {
      const stream = fact.metadata.stream
      if (!readable(stream)) return []
      return stream.startsWith(playbooks)
        ? [{ kind: "playbook", playbook: stream.slice(playbooks.length) }]
        : [{ kind: "comment", comment_id: stream.slice(comments.length) }]
    }
  }
}
