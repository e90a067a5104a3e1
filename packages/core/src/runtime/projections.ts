import { Layer } from "effect"
import { playbooksProjection } from "../playbooks/playbooksProjection.js"
import { Projections } from "../ports/Views.js"

/** Every inline projection of the core, as the stores apply them. */
export const coreProjections = [playbooksProjection]

/** The core's projections as the service the stores need. */
export const ProjectionsLive = Layer.succeed(Projections, coreProjections)
