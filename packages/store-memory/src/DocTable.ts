import type { ViewDoc, ViewKey, ViewListing } from "@runledger/core"
import { Data, Order, RedBlackTree } from "effect"

/** Where a document sorts in its partition: its sort key, then its id (a `Data` tuple, equal by its elements). */
type Place = readonly [sort: string, id: string]

/** The place of a document, as the tree compares and finds it. */
const placeOf = (sort: string, id: string): Place => Data.tuple(sort, id)

/** Places in JavaScript's string order, sort key first (the `"C"` collation of the Postgres store). */
const placeOrder: Order.Order<Place> = Order.tuple(Order.string, Order.string)

/** A partition's documents in (sort, id) order, each by its table key. */
type Partition = RedBlackTree.RedBlackTree<Place, string>

/** The key of a partition: view and partition joined by a separator no name holds. */
const partitionKey = (view: string, partition: string): string => `${view}\u0000${partition}`

/** The key of a document: its partition's key and its id. */
const docKey = (key: ViewKey): string => `${partitionKey(key.view, key.partition)}\u0000${key.id}`

/**
 * The views' documents in memory (ADR 0013): by view, partition and id, and each partition ordered by (sort, id)
 * in a red-black tree, so a page of a partition costs O(log n + page) whatever the other partitions hold. A write
 * moves a document in its partition only when its sort key changes.
 */
export class DocTable {
  readonly #docs = new Map<string, ViewDoc>()
  readonly #partitions = new Map<string, Partition>()

  /** The document at a key, if any. */
  get(key: ViewKey): ViewDoc | undefined {
    return this.#docs.get(docKey(key))
  }

  /** Writes the document at a key, or deletes it when `doc` is undefined. */
  write(key: ViewKey, doc: ViewDoc | undefined): void {
    const at = docKey(key)
    const before = this.#docs.get(at)
    if (doc === undefined) this.#docs.delete(at)
    else this.#docs.set(at, doc)
    if (before?.sort === doc?.sort) return
    const partitionAt = partitionKey(key.view, key.partition)
    let partition = this.#partitions.get(partitionAt) ?? RedBlackTree.empty<Place, string>(placeOrder)
    if (before !== undefined) partition = RedBlackTree.removeFirst(partition, placeOf(before.sort, key.id))
    if (doc !== undefined) partition = RedBlackTree.insert(partition, placeOf(doc.sort, key.id), at)
    if (RedBlackTree.size(partition) === 0) this.#partitions.delete(partitionAt)
    else this.#partitions.set(partitionAt, partition)
  }

  /** A page of a partition in (sort, id) order, after an exclusive bound. */
  list(view: string, partition: string, listing: ViewListing): ReadonlyArray<ViewDoc> {
    const tree = this.#partitions.get(partitionKey(view, partition))
    const limit = Math.max(0, Math.floor(listing.limit))
    if (tree === undefined || limit === 0) return []
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
    for (const [, at] of entries) {
      page.push(this.#docs.get(at)!)
      if (page.length === limit) break
    }
    return page
  }
}
