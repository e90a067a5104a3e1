import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** Tests import the packages' sources, so they run without a build. */
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@runledger\/core\/testing$/, replacement: src("./packages/core/src/testing/index.ts") },
      { find: /^@runledger\/core$/, replacement: src("./packages/core/src/index.ts") },
      { find: /^@runledger\/store-memory$/, replacement: src("./packages/store-memory/src/index.ts") },
      {
        find: /^@runledger\/store-postgres\/testing$/,
        replacement: src("./packages/store-postgres/src/testing/index.ts")
      },
      { find: /^@runledger\/store-postgres$/, replacement: src("./packages/store-postgres/src/index.ts") },
      { find: /^@runledger\/adapter-http$/, replacement: src("./packages/adapter-http/src/index.ts") },
      { find: /^@runledger\/adapter-mcp$/, replacement: src("./packages/adapter-mcp/src/index.ts") },
      { find: /^@runledger\/tool-servers$/, replacement: src("./packages/tool-servers/src/index.ts") },
      { find: /^@runledger\/model-providers$/, replacement: src("./packages/model-providers/src/index.ts") }
    ]
  },
  test: {
    reporters: ["default", "./scripts/closingLineReporter.ts"],
    include: ["packages/*/test/**/*.test.ts", "packages/*/src/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks"
  }
})
