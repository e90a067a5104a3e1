import type { ModelProviderEntry } from "@runledger/core"

/** The address of a path of a provider's API: the entry's base address, else the API's own, without a trailing slash. */
export const providerAddress = (provider: ModelProviderEntry, ownBase: string, path: string): string =>
  `${(provider.baseUrl ?? ownBase).replace(/\/+$/, "")}${path}`
