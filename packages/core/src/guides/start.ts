/** The guide `start`: where an agent begins. Written for an agent, in our own words. */
export const startGuide = `# Start here

A playbook is built from a job the person wants done again and again. Split the job into its parts and give each
part a function of the type its work needs; a workflow then runs the parts in order, decides the branches and the
waits, and says what happens when a part fails.

## Which type each part takes

- **computation**: a calculation on the data it is given (totals, rules, reshaping). Runs at once, in a sandbox.
- **lookup**: a read of a connected service, through a tool marked as one that only reads. Needs a connection.
- **reasoning**: judgement written as instructions to a model, with the tools it may call.
- **interaction**: a question to a person or an agent, or a notification; the run waits for the answer.
- **prediction**: a forecast from the playbook's own history of events. Needs history.
- **generation**: an image or audio asset made by a model.
- **workflow**: the job itself, calling the functions above. It owns one job the business does again and again,
  with a result the person recognises as done.

A test of a function, a question to a person on its own, or a check that a service works is not a workflow: run
the function with \`run_definition\` instead. Where a reasoning function has come to hold a read, a calculation, a
question or an act, move that part into a function of its own type.

## What the agent does itself

Testing, setting a service up and checking it are your own work, done with \`run_definition\`, never saved as a
workflow. Every function and workflow you save is recorded with its versions; every run is recorded as facts on
the playbook's ledger, which \`list_playbook_events\` and \`get_run\` read back.

## Where to go next

- \`terminology\`: what the words of a playbook mean.
- \`computation-function\`: the computation function's document, its library and its bounds. A guide joins for each
  further format as this runtime comes to run it.

Start with \`list_playbooks\`; create one with \`create_playbook\` when the person has named the job.
`
