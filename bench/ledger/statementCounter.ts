/**
 * Counts the statements the `pg` driver sends from this process, the store's and the baseline's alike (both go
 * through `@effect/sql-pg`, which uses one `pg`): every `Client#query` is one round trip to the server, BEGIN and
 * COMMIT included. Read before and after a timed run, the difference is what that run sent.
 */
export const installStatementCounter = async (): Promise<() => number> => {
  // Through a variable: `pg` (the driver @effect/sql-pg uses) has no type declarations here.
  const specifier = "pg"
  const pg = ((await import(specifier)) as { default: PgModule }).default
  const original = pg.Client.prototype.query
  let count = 0
  pg.Client.prototype.query = function (this: unknown, ...args: Array<unknown>) {
    count += 1
    return original.apply(this, args)
  }
  return () => count
}

interface PgModule {
  readonly Client: { readonly prototype: { query: (...args: Array<unknown>) => unknown } }
}
