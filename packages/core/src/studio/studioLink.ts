import type { RuntimeSettings } from "../config/RuntimeConfig.js"

/** Whether Studio would open a runtime at this address: https, or on this computer. */
export const studioOpens = (address: string): boolean => {
  try {
    const url = new URL(address)
    return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)
  } catch {
    return false
  }
}

/**
 * A link to a place in Studio (HTTP "Links to Studio"): the Studio origin, the runtime as `server`, then the
 * place's parameters in order. Undefined when no Studio origin is configured or Studio would not open the runtime.
 */
export const studioLink = (
  settings: RuntimeSettings,
  origin: string,
  place: ReadonlyArray<readonly [string, string]>
): string | undefined => {
  if (settings.studioOrigin === undefined) return undefined
  const server = settings.publicUrl ?? origin
  if (!studioOpens(server)) return undefined
  const query = [["server", server] as const, ...place]
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join("&")
  return `${settings.studioOrigin.replace(/\/$/, "")}/?${query}`
}
