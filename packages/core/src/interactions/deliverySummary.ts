/** A sentence of what a delivery fact records: the attempt, and what follows it. */
export const deliverySummary = (type: string, data: Record<string, unknown>): string => {
  const attempt = `Delivery attempt ${String(data.number)}`
  switch (type) {
    case "delivery_started":
      return `${attempt} through ${String(data.server)}/${String(data.tool)} started.`
    case "delivery_succeeded":
      return `${attempt} delivered the request.`
    case "delivery_failed":
      return `${attempt} failed: ${String(data.because).replaceAll("_", " ")}; ${data.next_attempt_at === undefined ? "no attempt follows" : `the next is at ${String(data.next_attempt_at)}`}.`
    default:
      return `${attempt} was refused: ${String(data.reason ?? data.because).replaceAll("_", " ")}; no attempt follows.`
  }
}
