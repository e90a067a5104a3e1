import type { Options } from "tsup"

/** How every package is built: ESM with declarations and source maps, for Node 20. */
export const packageBuild = (entry: ReadonlyArray<string> = ["src/index.ts"]): Options => ({
  entry: [...entry],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20"
})
