import type { WebHandler } from "@runledger/core"

/** A web handler that counts the requests it is answering, and waits for them to be answered when the server stops. */
export interface RequestsInFlight {
  readonly handler: WebHandler
  /** Resolves once no request is being answered, or after `graceMillis`, whichever comes first. */
  readonly settled: (graceMillis: number) => Promise<void>
}

/** Wraps a handler so the server can answer the requests it holds before it closes their connections. */
export const requestsInFlight = (inner: WebHandler): RequestsInFlight => {
  let count = 0
  let onIdle: (() => void) | undefined
  const handler: WebHandler = async (request, info) => {
    count++
    try {
      return await inner(request, info)
    } finally {
      count--
      if (count === 0) onIdle?.()
    }
  }
  const settled = (graceMillis: number) =>
    new Promise<void>((resolve) => {
      if (count === 0) return resolve()
      const timer = setTimeout(resolve, graceMillis)
      onIdle = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  return { handler, settled }
}
