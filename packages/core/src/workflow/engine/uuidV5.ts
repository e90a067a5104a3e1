import { createHash } from "node:crypto"

/** The namespace of the ids the workflow engine derives from its keys (callee run ids, emitted event ids). */
export const workflowKeyNamespace = "6f1a3c52-8b0e-5d7a-9c41-2e7f0b9d4a18"

/** The namespaces' bytes, read once each: a handful of constant namespaces, asked for at every derived id. */
const namespaceBytes = new Map<string, Buffer>()

const bytesOf = (uuid: string): Buffer => {
  let bytes = namespaceBytes.get(uuid)
  if (bytes === undefined) {
    bytes = Buffer.from(uuid.replaceAll("-", ""), "hex")
    namespaceBytes.set(uuid, bytes)
  }
  return bytes
}

/**
 * The UUID version 5 (RFC 9562: SHA-1 of the namespace and the name) of `name` in `namespace`: the same key gives
 * the same id on every replay and every instance.
 */
export const uuidV5 = (name: string, namespace: string = workflowKeyNamespace): string => {
  const hash = createHash("sha1").update(bytesOf(namespace)).update(name, "utf8").digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
