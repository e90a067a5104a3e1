import {
  type Context,
  type Emitter,
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken
} from "liquidjs"
import { makeTemplateEngine } from "../interaction/templateEngine.js"

/** Where a render writes the system block's text: a key no template can read (a symbol, own properties only). */
export const systemSink: unique symbol = Symbol("system")

/** The holder of the system block's text during one render. */
export interface SystemText {
  text: string
}

/**
 * `{% system %}…{% endsystem %}` (function-formats.md §2.3): its content renders in document order into the
 * render's system sink rather than the message, so a value assigned inside is visible after it. It is found in
 * the parse tree, so input text holding the tag's characters can never open or close it.
 */
export class SystemTag extends Tag {
  readonly templates: Array<Template> = []

  constructor(token: TagToken, remainTokens: Array<TopLevelToken>, liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid)
    if (token.args.trim() !== "") throw new Error("the system block takes no arguments: write {% system %}")
    const stream = parser
      .parseStream(remainTokens)
      .on("tag:endsystem", () => stream.stop())
      .on("template", (template: Template) => this.templates.push(template))
      .on("end", () => {
        throw new Error("the system block opened here never closes with {% endsystem %}")
      })
    stream.start()
  }

  *render(context: Context, _emitter: Emitter): Generator<unknown, void, unknown> {
    const text = (yield this.liquid.renderer.renderTemplates(this.templates, context)) as string
    const sink = (context.environments as { [systemSink]?: SystemText })[systemSink]
    if (sink !== undefined) sink.text += text
  }

  // biome-ignore lint/correctness/useYield: liquidjs reads every tag's children through a generator
  *children(): Generator<unknown, Array<Template>, unknown> {
    return this.templates
  }
}

/** The engine of prompts: the runtime's one configuration (decision F12) with the system block. */
export const promptEngine: Liquid = (() => {
  const engine = makeTemplateEngine()
  engine.registerTag("system", SystemTag)
  return engine
})()
