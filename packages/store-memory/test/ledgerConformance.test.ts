import { ledgerConformance } from "@runledger/core/testing"
import { MemoryLedger } from "@runledger/store-memory"

ledgerConformance("memory", MemoryLedger.layer)
