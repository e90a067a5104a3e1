import type { ToolServerFailed } from "@runledger/core"
import { Clock, Duration, Effect, Exit, Schedule, type Scope } from "effect"
import { closeSession, fit, type McpSession, openSession } from "./McpSession.js"
import type { PreparedServer } from "./PreparedServer.js"

/** How long a session may sit unused before it is closed, and how many unused sessions are held at most. */
export interface PoolSettings {
  readonly idleMs: number
  readonly held: number
}

/** 30 s unused, 32 held (ADR 0306). */
export const poolDefaults: PoolSettings = { idleMs: 30_000, held: 32 }

/** The MCP sessions the runtime holds between uses, keyed by server and credentials (ADR 0306). */
export interface SessionPool {
  /**
   * Runs `use` on a held session of the server, or on one opened for it (`fresh`: always a new one), which no
   * other use shares meanwhile. Afterwards the session is held again while it is fit, closed otherwise (and when
   * the use was interrupted: what it left in flight is unknown).
   */
  readonly lease: <A, E>(
    prepared: PreparedServer,
    scrub: (text: string) => string,
    use: (session: McpSession) => Effect.Effect<A, E>,
    fresh?: boolean
  ) => Effect.Effect<A, E | ToolServerFailed>
}

/**
 * A pool of sessions, closed with its scope. The unused sessions of a key are taken most recently used first; one
 * unused for `idleMs` is closed (checked every half of it), and past `held` unused sessions the one unused longest
 * is closed.
 */
export const makeSessionPool = (
  settings: PoolSettings = poolDefaults
): Effect.Effect<SessionPool, never, Scope.Scope> =>
  Effect.gen(function* () {
    const idle = new Map<string, Array<McpSession>>()
    let count = 0
    let open = true

    const remove = (key: string, session: McpSession) => {
      const sessions = idle.get(key)
      const at = sessions?.indexOf(session) ?? -1
      if (at < 0) return
      sessions!.splice(at, 1)
      if (sessions!.length === 0) idle.delete(key)
      count--
    }

    /**
     * The sessions nobody uses that `closing` picks, all taken out of the pool at once and then closed: closing one
     * waits (an HTTP session's `DELETE`, a process's exit), and a session still held meanwhile could be taken for a
     * use and closed under it (ADR 0340).
     */
    const closeIdle = (closing: (session: McpSession) => boolean) =>
      Effect.suspend(() => {
        const picked = [...idle].flatMap(([key, sessions]) =>
          sessions.filter(closing).map((session) => [key, session] as const)
        )
        for (const [key, session] of picked) remove(key, session)
        return Effect.forEach(picked, ([, session]) => closeSession(session), { discard: true })
      })

    const take = (key: string): Effect.Effect<McpSession | undefined> =>
      Effect.gen(function* () {
        for (;;) {
          const session = idle.get(key)?.at(-1)
          if (session === undefined) return undefined
          remove(key, session)
          if (fit(session)) return session
          yield* closeSession(session)
        }
      })

    const giveBack = (key: string, session: McpSession) =>
      Effect.gen(function* () {
        if (!open || !fit(session)) return yield* closeSession(session)
        session.idleSince = yield* Clock.currentTimeMillis
        idle.set(key, [...(idle.get(key) ?? []), session])
        count++
        if (count <= settings.held) return
        const longest = Math.min(...[...idle.values()].flatMap((sessions) => sessions.map((held) => held.idleSince)))
        yield* closeIdle((held) => held.idleSince === longest)
      })

    const sweep = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      closeIdle((session) => !fit(session) || now - session.idleSince >= settings.idleMs)
    )
    yield* Effect.forkScoped(
      Effect.repeat(sweep, Schedule.spaced(Duration.millis(Math.max(1_000, settings.idleMs / 2))))
    )
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        open = false
        return closeIdle(() => true)
      })
    )

    return {
      lease: (prepared, scrub, use, fresh = false) =>
        Effect.acquireUseRelease(
          Effect.flatMap(fresh ? Effect.succeed(undefined) : take(prepared.key), (held) =>
            held === undefined ? openSession(prepared, scrub) : Effect.succeed(held)
          ),
          use,
          (session, exit) => (Exit.isInterrupted(exit) ? closeSession(session) : giveBack(prepared.key, session))
        )
    }
  })
