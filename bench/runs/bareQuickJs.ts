import variant from "@jitl/quickjs-wasmfile-release-sync"
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core"
import { inputOf, trivialScript } from "./program.js"

/**
 * The floor: the trivial program in a bare QuickJS context of the same build, on this thread, sequentially —
 * `newContext`, `evalCode` of the program and of the input, `callFunction`, the result read back as JSON text,
 * everything disposed. No prelude, no limits, no worker, no ledger.
 */
export const bareQuickJs = async () => {
  const module = await newQuickJSWASMModuleFromVariant(variant as unknown as QuickJSSyncVariant)
  return (index: number): string => {
    const context = module.newContext()
    try {
      const program = context.unwrapResult(context.evalCode(trivialScript, "main.js"))
      const input = context.unwrapResult(context.evalCode(`(${JSON.stringify(inputOf(index))})`, "input.js"))
      const output = context.unwrapResult(context.callFunction(program, context.undefined, input))
      const json = JSON.stringify(context.dump(output))
      output.dispose()
      input.dispose()
      program.dispose()
      return json
    } finally {
      context.dispose()
    }
  }
}
