import { activityOperations } from "../activity/activityOperations.js"
import { getPlaybookAnalytics } from "../analytics/operations/getPlaybookAnalytics.js"
import { listOrgChanges } from "../changes/operations/listOrgChanges.js"
import { listPlaybookChanges } from "../changes/operations/listPlaybookChanges.js"
import { commentOperations } from "../comments/commentOperations.js"
import { createDefinition } from "../definitions/operations/createDefinition.js"
import { getDefinition } from "../definitions/operations/getDefinition.js"
import { listDefinitions } from "../definitions/operations/listDefinitions.js"
import { pauseDefinition } from "../definitions/operations/pauseDefinition.js"
import { restoreDefinition } from "../definitions/operations/restoreDefinition.js"
import { resumeDefinition } from "../definitions/operations/resumeDefinition.js"
import { retireDefinition } from "../definitions/operations/retireDefinition.js"
import { updateDefinition } from "../definitions/operations/updateDefinition.js"
import { getEvent } from "../events/operations/getEvent.js"
import { getRunHistory } from "../events/operations/getRunHistory.js"
import { listPlaybookEvents } from "../events/operations/listPlaybookEvents.js"
import { getGuide } from "../guides/getGuide.js"
import { answerInteraction } from "../interactions/operations/answerInteraction.js"
import { listInteractions } from "../interactions/operations/listInteractions.js"
import { listModels } from "../models/operations/listModels.js"
import { publishEvent } from "../playbookEvents/operations/publishEvent.js"
import { createPlaybook } from "../playbooks/operations/createPlaybook.js"
import { getPlaybook } from "../playbooks/operations/getPlaybook.js"
import { listPlaybooks } from "../playbooks/operations/listPlaybooks.js"
import { renderPlaybookPage } from "../playbooks/operations/renderPlaybookPage.js"
import { restorePlaybook } from "../playbooks/operations/restorePlaybook.js"
import { retirePlaybook } from "../playbooks/operations/retirePlaybook.js"
import { updatePlaybook } from "../playbooks/operations/updatePlaybook.js"
import { cancelRun } from "../runs/operations/cancelRun.js"
import { getRun } from "../runs/operations/getRun.js"
import { listRuns } from "../runs/operations/listRuns.js"
import { runDefinition } from "../runs/operations/runDefinition.js"
import { toolOperations } from "../tools/toolOperations.js"
import { sendRunEvent } from "../workflow/operations/sendRunEvent.js"
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
  createDefinition,
  listDefinitions,
  getDefinition,
  updateDefinition,
  pauseDefinition,
  resumeDefinition,
  retireDefinition,
  restoreDefinition,
  runDefinition,
  getRun,
  listRuns,
  cancelRun,
  sendRunEvent,
  listInteractions,
  answerInteraction,
  getRunHistory,
  listPlaybookEvents,
  getEvent,
  publishEvent,
  listOrgChanges,
  listPlaybookChanges,
  getPlaybookAnalytics,
  ...commentOperations,
  ...activityOperations,
  getGuide,
  listModels,
  ...toolOperations
]

/** The operation of a name. */
export const findOperation = (name: string): Operation | undefined =>
  catalog.find((operation) => operation.name === name)
