import { contentConformance } from "@runledger/core/testing"
import { MemoryContentStore } from "@runledger/store-memory"

contentConformance("memory", MemoryContentStore.layer)
