import type { Server } from "@modelcontextprotocol/server"

/** The tools the fake inventory server lists. */
export declare const inventoryToolList: ReadonlyArray<{ name: string; description: string; inputSchema: object }>
/** One call the fake inventory server took. */
export interface InventoryCall {
  name: string
  arguments: Record<string, unknown>
  meta: Record<string, unknown>
}
/** The low-level server answering the fake inventory's tools. */
export declare const inventoryServer: (
  secret: string,
  calls?: Array<InventoryCall>,
  hints?: Record<string, Record<string, boolean>>,
  options?: { announcesChanges?: boolean; exits?: boolean; hidden?: Set<string> }
) => Server
