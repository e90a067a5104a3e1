import { Effect, Either } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import { studioLink } from "../studio/studioLink.js"
import type { Comment, CommentState } from "./Comment.js"
import type { CommentScope } from "./CommentScope.js"
import { checkAddress } from "./checkAddress.js"
import { studioPlace } from "./studioPlace.js"

/**
 * Gives comments of a scope their place in Studio (HTTP "Links to Studio"): the parameters of the address, then
 * `comment`; no `src`, no `because`. Left out where no Studio is configured or Studio would not open the runtime.
 */
export const withStudio = (
  scope: CommentScope,
  origin: string
): Effect.Effect<(comment: CommentState) => Comment, never, RuntimeConfig> =>
  Effect.map(RuntimeConfig, (settings) => (comment) => {
    const address = checkAddress(comment.address, scope, false)
    const place = Either.isRight(address) ? studioPlace(address.right) : []
    const studio = studioLink(settings, origin, [...place, ["comment", comment.id]])
    return studio === undefined ? comment : { ...comment, studio }
  })
