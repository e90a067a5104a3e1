/** Why a document that tells a refused reply's party why is refused: telling is not served yet (ADR 0195). */
export const tellingUnserved =
  "This runtime does not tell a party why its reply was refused yet, so replies.tell cannot be served; leave tell out: a refused reply is recorded as reply_refused and counted in the request's reply_refusals, and the party may answer again or use answer_interaction."
