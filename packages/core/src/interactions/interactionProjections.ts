import { deliveriesProjection } from "./deliveriesProjection.js"
import { interactionsProjection } from "./interactionsProjection.js"
import { openRequestsProjection } from "./openRequestsProjection.js"
import { replyRequestsProjection } from "./replyRequestsProjection.js"
import { timersProjection } from "./timersProjection.js"

/**
 * The projections of requests: the open requests listed, their count per playbook, the host's timers, due
 * deliveries, and the open requests whose replies are read.
 */
export const interactionProjections = [
  interactionsProjection,
  openRequestsProjection,
  timersProjection,
  deliveriesProjection,
  replyRequestsProjection
]
