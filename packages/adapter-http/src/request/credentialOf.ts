import { type Credential, isLoopback, type Rejection, reject } from "@runledger/core"
import { Either } from "effect"

/** `Bearer <token>`, the scheme in any case (RFC 9110 §11.1), the token in the base64url-and-more token68 form. */
const bearerPattern = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

/**
 * The credential a request carries: the token of `Authorization: Bearer <token>` and whether the peer (its
 * `remoteAddress`) is a loopback address. An Authorization header of another form is refused as
 * `unauthenticated`, never read as no credential.
 */
export const credentialOf = (
  request: Request,
  remoteAddress: string | undefined
): Either.Either<Credential, Rejection> => {
  const loopback = isLoopback(remoteAddress)
  const header = request.headers.get("authorization")
  if (header === null) return Either.right({ loopback })
  const bearer = bearerPattern.exec(header)?.[1]
  return bearer === undefined
    ? Either.left(reject("unauthenticated", "Send the credential as Authorization: Bearer <key>."))
    : Either.right({ bearer, loopback })
}
