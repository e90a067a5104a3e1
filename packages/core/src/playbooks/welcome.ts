/**
 * The welcome list_playbooks gives an org with no playbook yet, to a caller who may make its first one
 * (HTTP "Playbooks"; the MCP seed quotes it), ending with the link to Studio's home where there is one.
 */
export const welcomeWords = (studioHome: string | undefined): string =>
  [
    "This organization has no playbooks yet. A playbook keeps work your team can use again. Its workflows coordinate functions that reason, interact, predict and compute.",
    "Unless the person has already said what they want, ask what they want done, and offer three starts: set up a first playbook, connect a service they use, or hear what RunLedger can do for their team.",
    "Before you build, read the guide start with get_guide: it says which function type each part of a job takes.",
    "In Studio, your team can review playbooks and run results. You can also manage workflows, connections, members and billing there.",
    ...(studioHome === undefined ? [] : [studioHome])
  ].join(" ")
