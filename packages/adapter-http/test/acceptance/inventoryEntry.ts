import type { ToolServerEntry } from "@runledger/core"

/**
 * The inventory fake (tool-servers' `serveInventory`) as the runtime's tool server `inventory`, for tenant acme, its
 * key read from INVENTORY_KEY; `more` adds the entry's other settings (allowed tools, marks…).
 */
export const inventoryEntry = (
  inventory: { readonly url: string },
  more: Omit<ToolServerEntry, "name" | "type" | "url"> = {}
): ToolServerEntry => ({
  name: "inventory",
  type: "mcp",
  url: `${inventory.url}/mcp`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
  headers: { Authorization: "Bearer ${INVENTORY_KEY}" },
  queryParams: { tenant: "acme" },
  ...more
})
