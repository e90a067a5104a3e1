/**
 * How many documents hold one day's counts, and one day's counts of a definition (ADR 0170): each run counts in the
 * shard its id picks, so runs that end at once seldom wait on one another's document lock, and a read adds the
 * shards of a day up as it adds up definitions.
 */
export const analyticsShards = 8

/** The shard a run counts in: its id's last hexadecimal digit (random in a UUIDv7), modulo the shards. */
export const shardOf = (runId: string): number => (Number.parseInt(runId.slice(-1), 16) || 0) % analyticsShards

/** A document id with the shard it holds: `<id>#<shard>`. */
export const shardedId = (id: string, shard: number): string => `${id}#${shard}`

/** A document id without its shard (an id written before shards were is its own). */
export const unshardedId = (id: string): string => id.split("#")[0]!
