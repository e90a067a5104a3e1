/** Polls `read` every `everyMs` until it answers something; fails when nothing came within `withinMs`. */
export const waitFor = async <A>(read: () => Promise<A | undefined>, withinMs = 20_000, everyMs = 100): Promise<A> => {
  const until = Date.now() + withinMs
  for (;;) {
    const found = await read()
    if (found !== undefined) return found
    if (Date.now() > until) throw new Error(`nothing came within ${withinMs / 1_000} s`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
