import { brokenProjection } from "./brokenProjection.js"
import { commentRowsProjection } from "./commentRowsProjection.js"
import { needsYouProjection } from "./needsYouProjection.js"
import { newRowsProjection } from "./newRowsProjection.js"
import { playbookRegisterProjection } from "./playbookRegister.js"
import { seenProjection } from "./seenProjection.js"

/** The projections of the org's activity: its rows of each kind, the register of playbooks, and each caller's seen. */
export const activityProjections = [
  needsYouProjection,
  brokenProjection,
  newRowsProjection,
  commentRowsProjection,
  playbookRegisterProjection,
  seenProjection
]
