/** The variables `to`, `from`, the message and a `call`'s arguments read (function-formats.md §3.2, §5.2.1). */
export const requestVariables = ["input", "today", "now"] as const
