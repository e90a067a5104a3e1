/** Why a document that calls a tool is refused: an interaction's `call` is not served yet. */
export const callUnserved =
  "This runtime does not run an interaction function that calls a tool yet; to read through a tool, write a lookup function; to ask a party, deliver the request through a tool with deliver: { server, tool, with }, or hold it for an agent with deliver: agent."

/** Why a document that reads replies back is refused: reading replies is not served yet. */
export const repliesUnserved =
  "This runtime does not read replies back from a conversation yet, so replies cannot be served; leave replies out: the party answers with answer_interaction, as how_to_answer tells it."
