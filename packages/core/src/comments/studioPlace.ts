import type { CommentAddress } from "./CommentAddress.js"

type Place = ReadonlyArray<readonly [string, string]>

/** A run's place in Studio: the playbook's Ledger, empty, then the run. */
const ledgerOf = (playbook: string, run: string): Place => [
  ["playbook", playbook],
  ["ledger", ""],
  ["run", run]
]

/**
 * The parameters of Studio's address that open a comment's address, in the seed's order (HTTP "Links to Studio"):
 * playbook, settings, `<type>=<name>`, version, step, ledger, run, event, block. A part adds none, and `comment`
 * follows them.
 */
export const studioPlace = (address: CommentAddress): Place => {
  switch (address.kind) {
    case "playbook":
      return [["playbook", address.playbook]]
    case "definition":
      return [
        ["playbook", address.playbook],
        [address.type, address.name],
        ...(address.version === undefined ? [] : [["version", String(address.version)] as const])
      ]
    case "step":
      return [
        ["playbook", address.playbook],
        ["workflow", address.name],
        ["version", String(address.version)],
        ["step", address.step]
      ]
    case "run":
    case "request":
      return ledgerOf(address.playbook, address.run)
    case "event":
      return [...ledgerOf(address.playbook, address.run), ["event", address.event]]
    case "block":
      return [...ledgerOf(address.playbook, address.run), ["block", String(address.block)]]
    case "org":
      return []
    case "connection":
      return [["settings", "connections"]]
    case "member":
      return [["settings", "members"]]
    case "settings":
      return [["settings", address.page]]
  }
}
