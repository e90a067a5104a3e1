import { interactionsProjection } from "./interactionsProjection.js"
import { openRequestsProjection } from "./openRequestsProjection.js"
import { timersProjection } from "./timersProjection.js"

/** The projections of requests: the open requests listed, their count per playbook, and the host's timers. */
export const interactionProjections = [interactionsProjection, openRequestsProjection, timersProjection]
