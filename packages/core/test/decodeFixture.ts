/** The pieces the decoder property test needs, imported from the core's sources. */
export { decodeInput } from "../src/catalog/decodeInput.js"
export { CreatePlaybookInput as CreatePlaybookInputForTests } from "../src/playbooks/operations/createPlaybook.js"
