/** A Content-Type split into its lowercase media type and its parameters (names lowercase, quotes removed). */
export interface MediaType {
  readonly type: string
  readonly parameters: ReadonlyMap<string, string>
}

/** Parses a Content-Type header value (RFC 9110 §8.3.1). */
export const parseMediaType = (header: string): MediaType => {
  const [type, ...parameters] = header.split(";")
  return {
    type: type.trim().toLowerCase(),
    parameters: new Map(
      parameters.map((parameter) => {
        const at = parameter.indexOf("=")
        const name = (at < 0 ? parameter : parameter.slice(0, at)).trim().toLowerCase()
        const value = at < 0 ? "" : parameter.slice(at + 1).trim()
        return [name, value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value] as const
      })
    )
  }
}
