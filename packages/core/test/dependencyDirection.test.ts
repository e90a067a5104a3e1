import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const root = new URL("../../", import.meta.url).pathname

/** Every TypeScript source file under a folder. */
const sources = (folder: string): Array<string> =>
  readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : []
  })

/** The modules a source file imports: static imports and re-exports at the start of a statement, and `import("…")`. */
const importsOf = (path: string): Array<string> => {
  const text = readFileSync(path, "utf8")
  const statements = [...text.matchAll(/^\s*(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)"/gm)]
  const bare = [...text.matchAll(/^\s*import\s*"([^"]+)"/gm)]
  const dynamic = [...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)]
  return [...statements, ...bare, ...dynamic].map((match) => match[1])
}

/** What each package may import besides relative paths and node builtins. */
const allowed: Record<string, RegExp> = {
  core: /^(effect|yaml|ajv|ajv-formats|liquidjs|croner|typescript|ts-blank-space|quickjs-emscripten-core|@jitl\/quickjs-wasmfile-release-sync|vitest)(\/|$)/,
  "store-memory": /^(effect|@runledger\/core)(\/|$)/,
  "store-postgres": /^(effect|@effect\/(sql|sql-pg|platform|experimental)|@runledger\/core|pg|vitest)(\/|$)/,
  "adapter-http": /^(effect|@effect\/(platform|platform-node)|@runledger\/core)(\/|$)/,
  "adapter-mcp": /^(effect|@modelcontextprotocol\/(server|core)|@runledger\/core|zod)(\/|$)/,
  "tool-servers": /^(effect|@modelcontextprotocol\/client|@runledger\/core|yaml)(\/|$)/
}

describe("the direction of dependencies", () => {
  for (const [pkg, pattern] of Object.entries(allowed))
    it(`${pkg} imports only what it may: never an adapter or a store it does not own`, () => {
      const offending = sources(join(root, pkg, "src")).flatMap((path) =>
        importsOf(path)
          .filter((module) => !module.startsWith(".") && !module.startsWith("node:") && !pattern.test(module))
          .map((module) => `${path.slice(root.length)} imports ${module}`)
      )
      expect(offending).toEqual([])
    })
})
