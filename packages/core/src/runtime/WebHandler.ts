/** What the server knows of a request beyond the web-standard `Request`. */
export interface RequestInfo {
  /** The peer's address, as node:http gives it (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`). */
  readonly remoteAddress?: string
}

/** A web-standard handler, as both adapters build them and any Node server can mount them. */
export type WebHandler = (request: Request, info?: RequestInfo) => Promise<Response>

/** A handler mounted into another at the paths it matches (the MCP endpoints inside the HTTP handler). */
export interface WebMount {
  readonly matches: (pathname: string) => boolean
  readonly handle: WebHandler
}

/** Whether an address is a loopback one: 127.0.0.0/8 or ::1, plain or IPv4-mapped. */
export const isLoopback = (address: string | undefined): boolean => {
  if (address === undefined) return false
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain)
}

/** The origin addresses are based on: PUBLIC_URL when set, else the origin the request arrived at. */
export const originOf = (request: Request, publicUrl: string | undefined): string =>
  (publicUrl ?? new URL(request.url).origin).replace(/\/$/, "")
