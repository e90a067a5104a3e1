import { Schema } from "effect"

/** The input of both changes routes: the cursor of an earlier answer, and how long to hold the request. */
export const ChangesInput = Schema.Struct({
  since: Schema.optional(
    Schema.String.annotations({
      description: "The cursor of an earlier answer; left out, the answer comes at once with the cursor of now."
    })
  ),
  wait: Schema.optional(
    Schema.Number.pipe(
      Schema.between(0, 25, { message: () => "must be a number of seconds from 0 to 25" }),
      Schema.annotations({
        description: "How many seconds to hold the request when nothing changed: 0 to 25, 25 when left out."
      })
    )
  )
})
export type ChangesInput = typeof ChangesInput.Type
