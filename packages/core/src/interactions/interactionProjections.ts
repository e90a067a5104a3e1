import { deliveriesProjection } from "./deliveriesProjection.js"
import { interactionsProjection } from "./interactionsProjection.js"
import { openRequestsProjection } from "./openRequestsProjection.js"
import { timersProjection } from "./timersProjection.js"

/** The projections of requests: the open requests listed, their count per playbook, the host's timers, and due deliveries. */
export const interactionProjections = [
  interactionsProjection,
  openRequestsProjection,
  timersProjection,
  deliveriesProjection
]
