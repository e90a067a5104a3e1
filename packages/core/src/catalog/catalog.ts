import { getGuide } from "../guides/getGuide.js"
import { createPlaybook } from "../playbooks/operations/createPlaybook.js"
import { getPlaybook } from "../playbooks/operations/getPlaybook.js"
import { listPlaybooks } from "../playbooks/operations/listPlaybooks.js"
import { renderPlaybookPage } from "../playbooks/operations/renderPlaybookPage.js"
import { restorePlaybook } from "../playbooks/operations/restorePlaybook.js"
import { retirePlaybook } from "../playbooks/operations/retirePlaybook.js"
import { updatePlaybook } from "../playbooks/operations/updatePlaybook.js"
import type { Operation } from "./Operation.js"

/** Every operation the runtime serves, each declared once; both adapters are built from this list. */
export const catalog: ReadonlyArray<Operation> = [
  createPlaybook,
  listPlaybooks,
  getPlaybook,
  updatePlaybook,
  retirePlaybook,
  restorePlaybook,
  renderPlaybookPage,
  getGuide
]

/** The operation of a name. */
export const findOperation = (name: string): Operation | undefined =>
  catalog.find((operation) => operation.name === name)
