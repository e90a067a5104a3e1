import { Context, Effect, Stream } from "effect"

/**
 * The sweeps lease (ADR 0402): which one of the instances sharing a store runs the hosts' sweeps and the trigger
 * schedule. `held` says whether this instance holds it now, then each change. The lease is an economy, not a
 * guard: every input is still applied at an expected version, so two holders for a moment (a partition) repeat
 * work and change nothing twice. A store shared by many instances provides a lease another instance takes over
 * within seconds when its holder dies (PostgreSQL: a session advisory lock); the default, for a store only one
 * instance uses (memory), is always held.
 */
export class Lease extends Context.Reference<Lease>()("@runledger/core/Lease", {
  defaultValue: (): { readonly held: Stream.Stream<boolean> } => ({
    held: Stream.concat(Stream.make(true), Stream.never)
  })
}) {}

/**
 * Runs `work` while this instance holds the lease and `otherwise` while it does not, interrupting one and starting
 * the other at each change. Neither ends: each is a host's loop.
 */
export const whileHeld = <E, R>(
  work: Effect.Effect<never, E, R>,
  otherwise: Effect.Effect<never, E, R> = Effect.never
): Effect.Effect<never, E, R> =>
  Effect.flatMap(Lease, (lease) =>
    lease.held.pipe(
      Stream.changes,
      Stream.flatMap((held) => Stream.fromEffect(held ? work : otherwise), { switch: true }),
      Stream.runDrain,
      Effect.zipRight(Effect.never)
    )
  )
