import { Context, Effect, Layer } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import { Caller } from "../domain/Caller.js"
import { allPermissions } from "../domain/Permission.js"
import { type Rejection, reject } from "../domain/Rejection.js"

/** What a request carries that may identify its caller. */
export interface Credential {
  /** The token of `Authorization: Bearer <token>`, if any. */
  readonly bearer?: string
  /** Whether the request came from a loopback address (127.0.0.0/8, ::1). */
  readonly loopback: boolean
}

/** Turns a credential into a caller, or refuses it as `unauthenticated`. */
export class Authenticator extends Context.Tag("@runledger/core/Authenticator")<
  Authenticator,
  {
    readonly authenticate: (credential: Credential) => Effect.Effect<Caller, Rejection>
  }
>() {
  /**
   * API keys from the settings, each of one org; in local mode a request with no credential from a loopback
   * address is the local developer (org `local`, caller `local`, every permission).
   */
  static readonly fromSettings = Layer.effect(
    Authenticator,
    Effect.map(RuntimeConfig, (settings) => {
      const keys = new Map(settings.apiKeys.map((key) => [key.key, key]))
      const local = new Caller({
        id: "local",
        name: settings.localName ?? "local developer",
        kind: "local",
        org: "local",
        permissions: [...allPermissions],
        playbooks: null
      })
      return {
        authenticate: (credential: Credential) => {
          if (credential.bearer !== undefined) {
            const key = keys.get(credential.bearer)
            if (key === undefined)
              return Effect.fail(unauthenticated("The credential is not one this runtime accepts."))
            return Effect.succeed(
              new Caller({
                id: `key:${key.name}`,
                name: key.name,
                kind: "key",
                org: key.org,
                permissions: [...key.permissions],
                playbooks: key.playbooks === undefined ? null : [...key.playbooks]
              })
            )
          }
          if (settings.localMode && credential.loopback) return Effect.succeed(local)
          return Effect.fail(
            unauthenticated(
              settings.localMode
                ? "Local mode trusts only requests from this computer; send an API key as Authorization: Bearer <key>."
                : "Send an API key as Authorization: Bearer <key>."
            )
          )
        }
      }
    })
  )
}

const unauthenticated = (detail: string): Rejection => reject("unauthenticated", detail)
