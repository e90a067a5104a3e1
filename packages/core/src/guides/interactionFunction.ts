/** The guide `interaction-function`: how to write an interaction function. Written for an agent, in our own words. */
export const interactionFunctionGuide = `# Writing an interaction function

An interaction function asks a party a question and waits for the answer: approve a refund, confirm a figure, pick
one of three drafts. Its run starts at once and returns \`status: started\`; it ends later, when someone answers,
when the request expires, or when the run is cancelled. Nothing waits in memory meanwhile: the request is a fact on
the playbook's ledger, so a restarted server, or another server on the same database, finds it again.

## The document

YAML front matter between two \`---\` lines (the first on line 1), then the message as the body.

\`\`\`markdown
---
description: Ask the account owner whether to grant a refund
to: '{{ input.owner }}'
expires: P3D
deliver: agent
input:
  schema:
    type: object
    required: [owner, order_id, amount_cents]
    properties:
      owner: { type: string }
      order_id: { type: string }
      amount_cents: { type: integer, minimum: 1 }
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
      reason: { type: string, maxLength: 1000 }
---
Order {{ input.order_id }} asks for a refund of {{ input.amount_cents | divided_by: 100.0 | money }}.
Grant or deny it, with a reason if you like.
\`\`\`

| Key | What it holds |
| --- | --- |
| \`to\` | Required. A template naming the party; it renders to text of 1 to 256 bytes, no control characters. |
| \`expires\` | Required. How long the request waits: an ISO 8601 duration from \`PT1M\` to \`P30D\` (\`PT2H\`, \`P3D\`, \`P1W\`). |
| \`deliver\` | Required. \`agent\`: the request is held for an agent, who reads it with \`list_interactions\` and answers it with \`answer_interaction\`. Or \`{ server, tool, with, sent }\`: a tool of a tool server the playbook may use sends it (see below). |
| \`from\` | Optional, with a tool: a template naming the answerer, recorded with the request. |
| \`output.schema\` | The answer schema (JSON Schema 2020-12, at most 64 KiB). An answer must match it. |
| \`input.schema\` | Optional. The run's input is checked against it first. |
| \`description\` | Optional, 1 to 1,000 characters. |

With \`deliver: agent\`, \`from\`, \`reply\` and \`replies\` are refused: the answer comes through \`answer_interaction\`,
not from a reply in a conversation. A document without \`deliver\` has no way to reach its party and is refused; so
is a notification (no \`output.schema\`) held for an agent.

## Reading replies back

\`\`\`yaml
from: '{{ input.owner }}'
replies:
  tool: list_thread
  with: { room: '{{ sent.conversation }}', after: '{{ since }}' }
  read:
    list: /items
    order: oldest_first
    each: { id: /id, sender: /author, text: /body, to: /parent_id }
reply:
  decision: { from: word, words: { grant: [yes, ok], deny: [no] } }
  reason: rest
\`\`\`

With \`deliver.sent\` and \`output.schema\`, \`replies\` names a tool of the delivery's server that lists what was
posted since a point (\`since\`: the id of the newest reply the last read saw, empty at first). The conversation key
(\`conversation\`, by default \`'{{ sent.conversation }}'\`) is shown as the request's \`conversation\`. The runtime
reads it 5, 10, 20 and 40 s after the delivery or the last reply, then every minute, later every 5 minutes (never
sooner than \`wait\`, PT5S to PT1H). A reply from the answerer (\`from\`, else \`to\`) is mapped by \`reply\`: a
property takes the first \`word\` (the value it or a synonym names), the \`rest\`, or the whole \`text\`; without
\`reply\`, an answer of one required string takes the first word (with \`enum\`) or the text. An answer that fits
is recorded as \`request_answered\` with the reply's identity; otherwise \`reply_refused\` (\`not_an_answer\`,
\`invalid\`, \`too_long\`, \`ambiguous\` when several requests of the conversation are open and the reply names
none by \`to\`), counted in \`reply_refusals\`. Reads that found replies or failed are \`replies_read\` and
\`reading_failed\` events of the playbook. With \`replies.tell\`, the answerer is told why a reply was refused, at
most 3 times a request: \`tell.with\` (typed arguments over \`to\`, \`sent\` and \`message\`, the runtime's
explanation; \`{to, message}\` by default) is sent through \`tell.tool\` (the delivery's tool by default), recorded
as \`telling_started\`, then \`telling_succeeded\` or \`telling_failed\` events of the playbook.

## Acting through a tool: \`call\`

\`\`\`yaml
call:
  server: crm
  tool: close_deal
  with:
    deal: '{{ input.deal_id }}'
    note: 'Closed on {{ today }}'
  read: /deal/status
output:
  schema: { type: string }
\`\`\`

An interaction with \`call\` asks nobody: it calls one tool that acts, once, and ends within the request that starts
it, its output the value at \`read\` in the tool's answer (the whole answer without \`read\`), which must match
\`output.schema\`. It takes no \`to\`, \`from\`, \`expires\`, \`deliver\`, \`replies\`, \`reply\` and no body. \`with\`
is typed arguments over \`input\`, \`today\` and \`now\`. The save asks the server for its tools: a server not set up
for the playbook, a tool the operator does not allow or the server does not list, and a tool marked \`reads\` (write
a lookup function for it) are refused at the line of \`call\`. The run records \`tool_call_started\` and
\`tool_call_answered\` or \`tool_call_failed\`; a call sent that failed ends \`conflict\`, kind \`effect_unknown\`,
since whether it acted is not known, and the same run id then answers \`tools_called\`: check, then run it under a
new id. A value absent at \`read\` or outside the schema ends \`conflict\`, kind \`unworkable\`.

Arguments (of \`call.with\` and \`deliver.with\`) hold at most 16 KiB as JSON. Arguments that read nothing but
\`today\` and \`now\` are measured at save and refused there; the others are measured by each run.

## Delivering through a tool

\`\`\`yaml
deliver:
  server: chat
  tool: send_message
  with:
    room: '{{ to }}'
    body: "{{ message }}\\n{{ how_to_answer }}"
    schema: '{{ answer_schema }}'
  sent:
    conversation: /room_id
    id: /message_id
\`\`\`

\`with\` holds the tool's arguments; each string is a template over \`input\`, \`today\`, \`now\`, \`to\`, \`message\`,
\`run_id\`, \`function\`, \`expires_at\`, \`answer_schema\` and \`how_to_answer\` (one sentence: answer with
\`answer_interaction\` before the expiry). A string that is exactly one \`{{ … }}\` sends its value with its JSON
type, so \`'{{ answer_schema }}'\` sends the schema as an object. Without \`with\`, the tool gets \`to\`, \`message\`,
\`run_id\`, \`function\`, \`expires_at\` and, for a question, \`answer_schema\` and \`how_to_answer\`. \`sent\` names
where in the tool's answer the conversation and the message's id are, both or neither. Arguments hold at most
16 KiB. The server must serve the playbook and allow the tool, or the run is \`unavailable\`, kind
\`tool_not_offered\`, and nothing is sent.

The runtime sends the request at once, then records each attempt: \`delivery_started\`, then \`delivery_succeeded\`,
\`delivery_failed\` (with \`retry_after_ms\` when the server asked for a delay, and \`next_attempt_at\`) or
\`delivery_refused\` (the tool refused the arguments, or the server no longer serves the playbook). A failed attempt
is tried again 1, 2, 4 and 8 minutes later (or after the server's \`Retry-After\`, up to 8 minutes), 5 attempts in
all; an attempt a stopped server left open counts as failed a minute after it started, so a tool may be called twice
for one request. A question stays open whatever its deliveries did, and is answered with \`answer_interaction\`; a
notification succeeds with output \`{}\` once delivered, and ends \`unanswered\`, kind \`undelivered\` (410), once
refused or when every attempt failed.

## Templates

\`to\` and the message are Liquid templates over \`input\`, \`today\` (\`YYYY-MM-DD\`, UTC) and \`now\` (ISO 8601, UTC), both
fixed when the run starts. Standard filters work, plus \`money\` (\`1234.5\` → \`$1,234.50\`), \`clip\` (cut to N code
points, default 400), \`words\` (count words) and \`json\`. A save refuses an unknown filter or variable, the tags
\`include\`, \`render\`, \`layout\`, \`block\` and \`capture\`, filters that read the clock or are random, and \`\${\`.
At run time, a field the input lacks stops the run \`invalid_input\` (except inside an \`if\` condition and before
\`default\`); a \`to\` that renders empty or too long, or a message over 8 KiB, ends it \`conflict\`, kind \`unworkable\`.

## The run, the answer, the ending

1. \`run_definition\` answers \`started\` with the \`run_id\`; the run records \`interaction_requested\` and
   \`run_deferred\` (the request as asked: party, message, answer schema, expiry).
2. \`list_interactions\` shows the open requests, newest first, with \`standing\` \`held_for_an_agent\`, or for one
   sent by a tool \`to_deliver\`, \`delivering\`, \`delivered\`, \`retrying\` or \`undelivered\` (and \`attempts\`), or
   \`cancelling\` once a cancel was asked. Filter with \`to\`, \`type\` and \`function\`.
3. \`answer_interaction\` takes \`answer\` (checked against the schema the request recorded; issues under \`/answer\`)
   and an optional \`claimed_for\` (whom you answer for, never checked). It records \`request_answered\` once: the same
   answer again returns the same fact; a different one is \`conflict\`.
4. The run then succeeds with the answer as its output, within milliseconds of the answer.

Unanswered by \`expires_at\`, the run ends rejected, \`unanswered\`, kind \`expired\` (410); the same run id and input
then answer the same. \`cancel_run\` ends a waiting request \`cancelled\`, kind \`requested\`, with your reason as its
detail. A playbook holds at most 10,000 open requests unless the operator sets another cap; past it a run is
\`unavailable\`, kind \`requests_full\`.
`
