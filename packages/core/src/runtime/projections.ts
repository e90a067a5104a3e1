import { Layer } from "effect"
import { activityProjections } from "../activity/activityProjections.js"
import { runTallyProjection } from "../analytics/runTallyProjection.js"
import { commentsProjection } from "../comments/commentsProjection.js"
import { definitionsProjection } from "../definitions/definitionsProjection.js"
import { interactionProjections } from "../interactions/interactionProjections.js"
import { playbooksProjection } from "../playbooks/playbooksProjection.js"
import { Projections } from "../ports/Views.js"
import { runsProjection } from "../runs/runsProjection.js"

/** Every inline projection of the core, as the stores apply them. */
export const coreProjections = [
  playbooksProjection,
  definitionsProjection,
  runsProjection,
  commentsProjection,
  runTallyProjection,
  ...interactionProjections,
  ...activityProjections
]

/** The core's projections as the service the stores need. */
export const ProjectionsLive = Layer.succeed(Projections, coreProjections)
