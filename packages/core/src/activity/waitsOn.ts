/** What `waits_on` says of a request that names nobody: any member of the org may answer it. */
export const anyMember = "any_member"

/**
 * Whom a request waits on, from the party it names (HTTP "The rows", `waits_on`): a person by id as named, an
 * address in lower case, or any member where it names neither.
 */
export const waitsOnOf = (party: string): string => {
  const named = party.trim()
  if (/^person:\S+$/.test(named)) return named
  if (named.includes("@")) return named.toLowerCase()
  return anyMember
}

/** Whether a request waits on a caller: any member, or the caller's own id; every request, for the local developer. */
export const waitsOnCaller = (
  waitsOn: string | null,
  caller: { readonly id: string; readonly kind: string }
): boolean => caller.kind === "local" || waitsOn === anyMember || waitsOn === caller.id
