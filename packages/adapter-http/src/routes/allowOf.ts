/** The methods a path answers to, as its `Allow` header lists them: the routed ones, and HEAD wherever GET is. */
export const allowOf = (methods: Iterable<string>): ReadonlyArray<string> => {
  const allow = new Set(methods)
  if (allow.has("GET")) allow.add("HEAD")
  return [...allow].sort()
}
