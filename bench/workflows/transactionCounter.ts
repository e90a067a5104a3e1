/** What the `pg` driver sent from this process since it was installed. */
export interface Sent {
  /** Statements: each `Client#query` is one round trip, BEGIN and COMMIT included. */
  readonly roundTrips: number
  /** Transactions ended by a commit: each COMMIT, and each statement sent outside BEGIN … COMMIT (autocommit). */
  readonly commits: number
  /** The commits of transactions that wrote (an INSERT, UPDATE, DELETE or a notification). */
  readonly writeCommits: number
  /** Round trips by the start of their text (spaces folded, 72 characters) and their first value if short. */
  readonly shapes: ReadonlyMap<string, number>
  /** The whole text of the latest statement that the counter was asked to keep (`keep`), if any was sent. */
  readonly kept: string | undefined
}

/** The text of a `query` call's first argument: a string or a query config with `text`. */
const textOf = (first: unknown): string =>
  typeof first === "string"
    ? first
    : typeof (first as { text?: unknown })?.text === "string"
      ? (first as { text: string }).text
      : ""

/** ` [$1=…]` when the first bound value is a short text (a view's name, say), else nothing. */
const firstValueOf = (args: ReadonlyArray<unknown>): string => {
  const values = Array.isArray(args[1]) ? args[1] : (args[0] as { values?: unknown } | undefined)?.values
  const first = Array.isArray(values) ? values[0] : undefined
  return typeof first === "string" && first.length <= 40 ? ` [$1=${first}]` : ""
}

const begins = /^\s*(BEGIN|START\s+TRANSACTION)\b/i
const commitsAtEnd = /(^|;)\s*(COMMIT|END)\s*;?\s*$/i
const abandons = /^\s*ROLLBACK\b(?!\s+TO)/i
/** Statements that write: plain DML, a notification, or the Postgres store's append functions. */
const writes = /\b(INSERT|UPDATE|DELETE|pg_notify|NOTIFY|runledger_append\w*|runledger_write\w*)\b/i

/** Whose clients a count takes: the RunLedger store's (their `application_name` starts `runledger`), or the others'. */
export type Whose = "runledger" | "others"

const whoseOf = (client: object): Whose =>
  String(
    (client as { connectionParameters?: { application_name?: unknown } }).connectionParameters?.application_name ?? ""
  ).startsWith("runledger")
    ? "runledger"
    : "others"

/**
 * Counts what every `pg` client of this process sends — the Postgres store's (through @effect/sql-pg), DBOS's and
 * the raw insert floor's alike, as they share one `pg` — and sorts it into round trips and commits, following each
 * connection in and out of its transactions (a text of several statements counts as one round trip), apart for the
 * RunLedger store's clients and the others', so a peer's background queries never count as RunLedger's. Read before
 * and after a timed run: the difference is what it sent. The latest text for which `keep` holds is kept whole.
 */
export const installTransactionCounter = async (
  keep: (text: string) => boolean = () => false
): Promise<(whose: Whose) => Sent> => {
  // Through a variable: `pg` has no type declarations here.
  const specifier = "pg"
  const pg = ((await import(specifier)) as { default: PgModule }).default
  const original = pg.Client.prototype.query
  const open = new WeakMap<object, { wrote: boolean }>()
  const counting = (): { -readonly [Key in keyof Sent]: Sent[Key] } & { shapes: Map<string, number> } => ({
    roundTrips: 0,
    commits: 0,
    writeCommits: 0,
    shapes: new Map(),
    kept: undefined
  })
  const counts = { runledger: counting(), others: counting() }
  pg.Client.prototype.query = function (this: object, ...args: Array<unknown>) {
    const count = counts[whoseOf(this)]
    count.roundTrips += 1
    const text = textOf(args[0])
    const shape = `${text.replace(/\s+/g, " ").trim().slice(0, 72)}${firstValueOf(args)}`
    count.shapes.set(shape, (count.shapes.get(shape) ?? 0) + 1)
    if (keep(text)) count.kept = text
    // A text may hold several statements: the store sends `BEGIN; …` and `…; COMMIT` as one round trip each.
    const wrote = writes.test(text)
    if (abandons.test(text)) open.delete(this)
    else if (begins.test(text) || open.has(this)) {
      const transaction = open.get(this) ?? { wrote: false }
      transaction.wrote ||= wrote
      open.set(this, transaction)
      if (commitsAtEnd.test(text)) {
        count.commits += 1
        if (transaction.wrote) count.writeCommits += 1
        open.delete(this)
      }
    } else {
      count.commits += 1
      if (wrote) count.writeCommits += 1
    }
    return original.apply(this, args)
  }
  return (whose) => ({ ...counts[whose], shapes: new Map(counts[whose].shapes) })
}

interface PgModule {
  readonly Client: { readonly prototype: { query: (...args: Array<unknown>) => unknown } }
}
