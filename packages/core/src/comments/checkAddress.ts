import { Either } from "effect"
import { invalidAt, type Rejection } from "../domain/Rejection.js"
import { type CommentAddress, isOrgAddress, readAddress } from "./CommentAddress.js"
import type { CommentScope } from "./CommentScope.js"

/** Examples of the forms a scope takes, for the words of a refusal. */
const formsOf = (scope: CommentScope): string =>
  scope.kind === "playbook"
    ? `playbooks/${scope.playbook}, ${scope.playbook}/definitions/<type>/<name>/<version>, ${scope.playbook}/runs/<run id> or ${scope.playbook}/<run id>`
    : "org, org/connections/<connection>, org/members/<member> or org/settings/<page>"

/** Whether a reading belongs to the scope. */
const belongs = (address: CommentAddress, scope: CommentScope): boolean =>
  scope.kind === "org" ? isOrgAddress(address) : !isOrgAddress(address) && address.playbook === scope.playbook

/** Why a text that reads as a form still does not belong to the scope, in words. */
const misplaced = (address: CommentAddress, scope: CommentScope): string =>
  isOrgAddress(address)
    ? "address: is of the organization's own things, whose comments belong to no playbook; use the organization's comments."
    : scope.kind === "org"
      ? `address: is of the playbook ${address.playbook}, whose comments are that playbook's; use its comments.`
      : `address: names the playbook ${address.playbook}, not ${scope.playbook}; use that playbook's comments.`

/**
 * Checks an address against the forms a comment takes in a scope (HTTP "Comments", "The organization's comments"):
 * of no form, of another playbook, of the organization on a playbook's route or the reverse, it is refused at
 * `/address`. A definition without its version is taken only where `unversioned` allows it (`under`).
 */
export const checkAddress = (
  text: string,
  scope: CommentScope,
  unversioned: boolean
): Either.Either<CommentAddress, Rejection> => {
  const readings = readAddress(text).filter(
    (reading) => unversioned || reading.kind !== "definition" || reading.version !== undefined
  )
  const own = readings.find((reading) => belongs(reading, scope))
  if (own !== undefined) return Either.right(own)
  if (readings.length > 0) return Either.left(invalidAt("/address", misplaced(readings[0], scope)))
  const versionless = readAddress(text).some((reading) => reading.kind === "definition")
  return Either.left(
    invalidAt(
      "/address",
      versionless
        ? "address: names a definition without its version, which only a list with under takes; add its version."
        : `address: is not of a form a comment takes, such as ${formsOf(scope)}.`
    )
  )
}
