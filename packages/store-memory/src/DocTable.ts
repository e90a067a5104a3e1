import type { ViewDoc, ViewKey, ViewListing } from "@runledger/core"
import { Order, RedBlackTree } from "effect"

/**
 * Where a document sorts in its partition: its sort key, U+0000, its id. No stored text holds U+0000 (ADR 0020),
 * so JavaScript's string order on places is the order by sort key, then id — the `"C"` collation of the Postgres
 * store — and a place is equal to another by `===`, which the tree compares fastest (ADR 0240).
 */
type Place = string

/** The place of a document, as the tree compares and finds it. */
const placeOf = (sort: string, id: string): Place => `${sort}\u0000${id}`

/** Places in JavaScript's string order. */
const placeOrder: Order.Order<Place> = Order.string

/** A partition's documents by id, and their ids in (sort, id) order. */
interface Partition {
  readonly docs: Map<string, ViewDoc>
  order: RedBlackTree.RedBlackTree<Place, string>
}

/**
 * The views' documents in memory (ADR 0013): by view, partition and id (maps in maps, so a read builds no key), and
 * each partition ordered by (sort, id) in a red-black tree, so a page of a partition costs O(log n + page) whatever
 * the other partitions hold. A write moves a document in its partition only when its sort key changes.
 */
export class DocTable {
  readonly #views = new Map<string, Map<string, Partition>>()

  /** The document at a key, if any. */
  get(key: ViewKey): ViewDoc | undefined {
    return this.#views.get(key.view)?.get(key.partition)?.docs.get(key.id)
  }

  /** Writes the document at a key, or deletes it when `doc` is undefined. */
  write(key: ViewKey, doc: ViewDoc | undefined): void {
    let partitions = this.#views.get(key.view)
    let partition = partitions?.get(key.partition)
    if (partition === undefined) {
      if (doc === undefined) return
      partition = { docs: new Map(), order: RedBlackTree.empty<Place, string>(placeOrder) }
      if (partitions === undefined) {
        partitions = new Map()
        this.#views.set(key.view, partitions)
      }
      partitions.set(key.partition, partition)
    }
    const before = partition.docs.get(key.id)
    if (doc === undefined) partition.docs.delete(key.id)
    else partition.docs.set(key.id, doc)
    if (before?.sort !== doc?.sort) {
      if (before !== undefined)
        partition.order = RedBlackTree.removeFirst(partition.order, placeOf(before.sort, key.id))
      if (doc !== undefined) partition.order = RedBlackTree.insert(partition.order, placeOf(doc.sort, key.id), key.id)
    }
    if (partition.docs.size > 0) return
    partitions!.delete(key.partition)
    if (partitions!.size === 0) this.#views.delete(key.view)
  }

  /** A page of a partition in (sort, id) order, after an exclusive bound. */
  list(view: string, partition: string, listing: ViewListing): ReadonlyArray<ViewDoc> {
    const found = this.#views.get(view)?.get(partition)
    const limit = Math.max(0, Math.floor(listing.limit))
    if (found === undefined || limit === 0) return []
    const tree = found.order
    const after = listing.after === undefined ? undefined : placeOf(listing.after.sort, listing.after.id)
    const ascending = listing.direction === "ascending"
    const entries =
      after === undefined
        ? ascending
          ? tree
          : RedBlackTree.reversed(tree)
        : ascending
          ? RedBlackTree.greaterThan(tree, after)
          : RedBlackTree.lessThanReversed(tree, after)
    const page: Array<ViewDoc> = []
    for (const [, id] of entries) {
      page.push(found.docs.get(id)!)
      if (page.length === limit) break
    }
    return page
  }
}
