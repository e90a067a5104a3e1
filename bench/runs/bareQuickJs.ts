import variant from "@jitl/quickjs-wasmfile-release-sync"
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core"

/**
 * The floor: a program (a function expression, its types stripped) in a bare QuickJS context of the same build, on
 * this thread — `newContext`, `evalCode` of the program and of the input, `callFunction`, the result read back as
 * JSON text, everything disposed. No prelude, no limits, no worker, no ledger. Answers a function of the input.
 */
export const bareQuickJs = async (script: string) => {
  const module = await newQuickJSWASMModuleFromVariant(variant as unknown as QuickJSSyncVariant)
  return (input: unknown): string => {
    const context = module.newContext()
    try {
      const program = context.unwrapResult(context.evalCode(script, "main.js"))
      const value = context.unwrapResult(context.evalCode(`(${JSON.stringify(input)})`, "input.js"))
      const output = context.unwrapResult(context.callFunction(program, context.undefined, value))
      const json = JSON.stringify(context.dump(output))
      output.dispose()
      value.dispose()
      program.dispose()
      return json
    } finally {
      context.dispose()
    }
  }
}
