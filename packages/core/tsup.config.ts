import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/testing/index.ts", "src/sandbox/runWorker.ts", "src/sandbox/checkerWorker.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20"
})
