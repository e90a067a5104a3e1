/**
 * A pure function of text that keeps its answers for the last `kept` texts it was asked about (the oldest is
 * dropped first), so the same saved program or document is worked out once, not on every run.
 */
export const recentMemo = <A>(compute: (text: string) => A, kept: number): ((text: string) => A) => {
  const known = new Map<string, A>()
  return (text) => {
    if (known.has(text)) return known.get(text) as A
    const made = compute(text)
    if (known.size >= kept) known.delete(known.keys().next().value!)
    known.set(text, made)
    return made
  }
}
