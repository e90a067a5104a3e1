import { Layer } from "effect"
import { activityProjections } from "../activity/activityProjections.js"
import { analyticsProjection } from "../analytics/analyticsProjection.js"
import { commentsProjection } from "../comments/commentsProjection.js"
import { definitionsProjection } from "../definitions/definitionsProjection.js"
import { interactionProjections } from "../interactions/interactionProjections.js"
import { playbooksProjection } from "../playbooks/playbooksProjection.js"
import { Projections } from "../ports/Views.js"
import { runsProjection } from "../runs/runsProjection.js"
import { workflowDueProjection } from "../workflow/run/workflowDueProjection.js"
import { workflowListensProjection } from "../workflow/run/workflowListensProjection.js"
import { workflowSeenProjection } from "../workflow/run/workflowSeenProjection.js"
import { workflowStatesProjection } from "../workflow/run/workflowStatesProjection.js"
import { openCallsProjection } from "../workflow/tree/openCallsProjection.js"
import { triggerCursorsProjection } from "../workflow/triggers/triggerCursorsProjection.js"
import { triggerStatesProjection } from "../workflow/triggers/triggerStatesProjection.js"

/** Every inline projection of the core, as the stores apply them. */
export const coreProjections = [
  playbooksProjection,
  definitionsProjection,
  runsProjection,
  commentsProjection,
  analyticsProjection,
  ...interactionProjections,
  ...activityProjections,
  workflowStatesProjection,
  workflowDueProjection,
  workflowListensProjection,
  workflowSeenProjection,
  openCallsProjection,
  triggerStatesProjection,
  triggerCursorsProjection
]

/** The core's projections as the service the stores need. */
export const ProjectionsLive = Layer.succeed(Projections, coreProjections)
