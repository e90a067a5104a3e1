/** A successful operation's answer: JSON, never cached; without its body for HEAD. */
export const jsonResponse = (status: number, output: unknown, head: boolean): Response => {
  const response = Response.json(output, { status, headers: { "cache-control": "no-store" } })
  return head ? new Response(null, { status, headers: response.headers }) : response
}
