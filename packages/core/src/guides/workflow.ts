/**
 * The guide `workflow`: how to write a workflow document. Written for an agent, in our own words.
 */
export const workflowGuide = `# Writing a workflow

A workflow strings playbook functions together: it calls them, branches on their answers, waits for time or for
events, retries what failed, and announces what happened. Every step is recorded, so a run survives restarts and
never does a recorded step twice. A workflow reaches the world only through the playbook's functions.

## The document

YAML in the Serverless Workflow DSL 1.0, narrowed to what this runtime runs. At most 65,536 bytes; no anchors,
aliases, tags or repeated keys.

\`\`\`yaml
document:
  dsl: '1.0.3'              # 1.0.0 to 1.0.3
  namespace: finance        # lowercase letters and digits, joined by single hyphens
  name: invoice-approval
  version: '1.2.0'          # your own label; quote it
  summary: Assesses an invoice and records the outcome.
input:
  schema:
    document: { type: object, required: [invoice] }   # inline JSON Schema, checked before a run starts
  from: '\${ ({ invoice: $data.invoice }) }'
output:
  as: '\${ ({ number: $data.number, status: $data.status }) }'
timeout:
  after: P14D
use:
  errors:
    not-payable: { type: https://example.com/errors/not-payable, status: 422, title: The invoice cannot be paid }
  retries:
    model-busy:
      delay: { seconds: 10 }
      backoff: { exponential: {} }
      limit: { attempt: { count: 4 } }
do:
  - check:
      try:
        - assess:
            call: run_definition
            with: { type: reasoning, name: assess-invoice, input: { invoice: '\${ $data.invoice }' } }
      catch:
        errors:
          with: { type: communication }
        retry: model-busy
      output:
        as: '\${ ({ ...$input, assessment: $data }) }'
  - stop-if-unpayable:
      if: $data.assessment.payable === false
      raise:
        error: not-payable
  - record:
      set:
        number: \${ $data.invoice.number }
        status: approved
\`\`\`

\`summary\` (else \`title\`) becomes the definition's description; \`input.schema\` and \`output.schema\` (or
\`output.shape\`: \`table\`, \`series\`, \`asset\`, never both) its schemas. \`document.tags\` and \`metadata\` are
accepted and ignored. \`evaluate\`, if written, is \`language: typescript\`, \`mode: strict\`.

## Tasks

A task list is a list of one-key mappings: the task's name (unique within its list), then what it does.

| Kind | Writes | Hands on |
| --- | --- | --- |
| \`call: run_definition\` | \`with: { type, name, input? }\` | the called run's output |
| \`set\` | a mapping whose values may be expressions | that mapping |
| \`do\` | a task list | the list's output |
| \`switch\` | cases \`- name: { when?, then }\`; the case without \`when\` is the default | its input |
| \`for\` | \`for: { in, each?, at? }\`, \`while?\`, \`do\` | the last iteration's output |
| \`fork\` | \`fork: { branches, compete? }\` (at most 32 branches) | the branch outputs, or the winner's |
| \`try\` | \`try\` list and \`catch: { errors?, as?, when?, exceptWhen?, retry?, do? }\` | the list's or the recovery's output |
| \`raise\` | \`raise: { error }\`, inline or a name from \`use.errors\` | raises |
| \`wait\` | a duration | its input |
| \`listen\` | \`listen: { to: { one \\| any \\| all }, read? }\` | the taken events, as a list |
| \`emit\` | \`emit: { event: { with: { type, source, … } } }\` | its input |

Every task also takes \`if\`, \`input.from\`, \`output.as\`, \`export.as\` (replaces \`$context\`), \`timeout\` (\`{ after }\`
or a name from \`use.timeouts\`) and \`then\`: \`continue\`, \`exit\`, \`end\`, or the name of a task of the same list.
Inside a fork branch only \`continue\`, \`exit\` and \`end\`.

\`with.type\` is a definition type and \`with.name\` a definition name (checked when written literally). The called
definition need not exist yet.

## Expressions

An expression is one TypeScript expression, run in the same sandbox as computation functions: no \`fetch\`, no
\`Math.random\`, and \`Date.now()\` is the time the run recorded. A string is an expression only when the whole
string is \`\${ … }\`; to mix text and values, write a template literal inside one:
\`'\${ \\\`Invoice \${$data.number} is due\\\` }'\`. A string holding \`\${\` any other way is refused. \`if\`, \`when\`,
\`exceptWhen\`, \`for.in\`, \`while\` and the text forms of \`input.from\`, \`output.as\`, \`export.as\` are expressions
without the wrapper. Quote expressions holding \`: \` or written inside \`{ }\`. Wrap object literals in parentheses.

| Variable | Where |
| --- | --- |
| \`$data\` | everywhere: the input, the produced value, the event attribute in a filter |
| \`$input\` | the body, \`output.as\`, \`export.as\`, catch conditions; not in \`if\`, \`timeout\`, \`input.from\` |
| \`$output\` | \`export.as\` only |
| \`$context\`, \`$task\` | task expressions |
| \`$workflow\`, \`$runtime\` | every expression of a run |
| \`$item\`, \`$index\` | inside a \`for\` (renamed by \`each\`, \`at\`) |
| \`$error\` | catch conditions, the retry's \`when\`/\`exceptWhen\`, \`catch.do\` (renamed by \`as\`) |

Filters of \`listen\` and of triggers see \`$data\` only. A condition holds unless it is \`false\` or \`null\`.

## Errors and retries

An error is \`{ type, status, instance, title?, detail?, kind?, because? }\`. The runtime's own types are
\`https://serverlessworkflow.io/spec/1.0.0/errors/<name>\` (\`validation\`, \`authorization\`, \`configuration\`,
\`runtime\`, \`communication\`, \`timeout\`, \`expression\`); a catch filter may write the short name. A catch filter
matches \`type\`, \`status\`, \`instance\`, \`title\`, \`details\` and \`kind\` as written; a catch without a filter catches
everything except cancellations and unanswered requests, which a filter must name.

A retry policy: \`delay\`, \`backoff\` (\`constant\`, \`linear\`, \`exponential\`), \`jitter: { from, to }\`,
\`limit: { attempt: { count, duration }, duration }\`, \`when\`, \`exceptWhen\`. A timeout retried calls the function
again, and its tools too: exclude timeouts when that matters.

## Durations

\`PT30M\`, \`P7D\`, \`P1W\`, \`P1DT12H\`, \`PT1.5S\` (milliseconds at most), or \`{ days, hours, minutes, seconds,
milliseconds }\`, or an expression. Never years or months, never longer than the longest run (30 days by default).

## Triggers

\`\`\`yaml
schedule:
  on:
    any:
      - with: { type: com.example.invoice.received, data: '\${ $data.amount_cents > 1000000 }' }
  cron: 'CRON_TZ=Europe/Paris 0 9 * * 1-5'   # five fields; UTC without the prefix
  every: PT30M                               # one minute at least
\`\`\`

An event trigger's filter has a literal \`type\`, may test \`source\` and \`subject\` literally and \`data\` either way,
and nothing else; \`one\` filter or \`any\` of 1 to 64 distinct ones. An event run gets \`[ <event> ]\` as input, a
scheduled run \`{ "schedule": { "due": <time> } }\`: tell them apart with \`input.from\` or a \`switch\`.

## Limits

Task lists nest at most 64 levels, values 512; a fork holds 32 branches; a call input 256 KiB; an emitted event
240 KiB and 1,024 per run; a run lasts 30 days by default. Each issue of a refused save reads
\`Line L, column C: at /pointer: message\`, at most 20 of them.
`
