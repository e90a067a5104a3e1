/** The guide `terminology`: what the words of a playbook mean. Written for an agent, in our own words. */
export const terminologyGuide = `# Terminology

- **Org**: the organization a credential belongs to. In local mode it is \`local\`.
- **Playbook**: a place that holds one team's definitions, their runs and the events they record. Its id is 3 to
  48 lowercase letters, digits and hyphens; a retired playbook keeps its id and stays readable.
- **Definition**: a function or a workflow, saved from a document (its \`source\`) under a name unique within its
  type and playbook. Each save that changes something is a new **version**.
- **Function**: a definition of one of the types reasoning, lookup, interaction, prediction, computation or
  generation. It takes an input and gives an output.
- **Workflow**: a definition that runs functions and other workflows in order, with branches, waits and retries.
- **Run**: one execution of a definition with an input, under a \`run_id\`. A run is \`started\`, then
  \`succeeded\`, \`rejected\` or \`failed\`. Sending the same request under the same \`run_id\` returns what that
  run recorded instead of running again.
- **Rejection**: why a run or a call was refused: a \`reason\` (such as \`invalid_input\` or \`conflict\`), an
  optional \`kind\` and \`because\`, words in \`detail\`, and for invalid input the JSON pointers in \`errors\`.
- **Fact** (or **event**): one thing that happened, recorded on the ledger with its stream, position, time and who
  acted. Nothing changes in a playbook without its fact.
- **Ledger**: the record of every fact, read per run (\`get_run_history\`) or per playbook
  (\`list_playbook_events\`).
- **Request**: a question an interaction function asked; a person or an agent answers it with
  \`answer_interaction\`.
- **Paused** and **retired**: a paused definition starts no run until it is resumed; a retired one keeps its name
  and history and can be restored (paused).
`
