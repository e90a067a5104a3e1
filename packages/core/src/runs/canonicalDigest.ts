import { createHash } from "node:crypto"

/** JSON with every object's keys sorted, so equal values give equal text whatever their key order. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, item[key]])
        )
      : item
  )

/** The SHA-256 of a value's canonical JSON, in lowercase hex: how a retry's input is compared. */
export const canonicalDigest = (value: unknown): string =>
  createHash("sha256").update(canonicalJson(value)).digest("hex")
