/** Why a document that names a tool is refused: tool servers come with their own issue. */
export const toolServersUnserved =
  "This runtime does not serve tool servers yet, so an interaction function cannot deliver through a tool or call one; hold the request for an agent with deliver: agent."
