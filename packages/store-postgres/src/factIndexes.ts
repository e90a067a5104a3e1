/**
 * The leading expressions of the facts' indexes that a filtered read of the global order walks (ADR 0012). A query
 * uses an expression index only when it repeats the expression exactly, constants included, so these are raw SQL:
 * the migration that creates an index and every read that walks it take the expression from here. Changing one
 * needs a migration that rebuilds its index.
 */

/**
 * The owner of a fact's stream, as `streamOwner` computes it: the first three segments of a playbook's stream, the
 * first two of any other, NULL for a stream with fewer (migration `4_owner_order`).
 */
export const streamOwnerSql =
  "(CASE WHEN starts_with(stream, 'playbook/') THEN substring(stream, '^playbook/[^/]*/[^/]*/') " +
  "ELSE substring(stream, '^[^/]*/[^/]*/') END)"

/** A fact's chain, its `correlation_id` (migration `1_ledger`). */
export const correlationSql = "(metadata->>'correlation_id')"
