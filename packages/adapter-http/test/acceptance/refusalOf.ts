/** What a refusal answers, for one comparison: its status, its kind, its because and its Retry-After (or null). */
export const refusalOf = (answer: { readonly status: number; readonly body: any; readonly headers: Headers }) => [
  answer.status,
  answer.body?.kind,
  answer.body?.because,
  answer.headers.get("retry-after")
]
