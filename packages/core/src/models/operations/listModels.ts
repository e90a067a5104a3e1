import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { ModelList } from "../ModelList.js"
import { Models } from "../Models.js"
import { modelListWords } from "../modelListWords.js"

/** list_models's input; over HTTP `provider` comes in the query string. */
export const ListModelsInput = Schema.Struct({
  provider: Schema.optional(
    Schema.String.pipe(
      Schema.filter(
        (text) =>
          /^[a-z][a-z0-9-]{0,31}$/.test(text) ||
          "must be a provider prefix of 1 to 32 lowercase letters, digits or hyphens, starting with a letter",
        { jsonSchema: { pattern: "^[a-z][a-z0-9-]{0,31}$" } }
      ),
      Schema.annotations({
        description:
          "One provider prefix, such as anthropic, or a configured gateway's name: list only what it serves, asking no other provider."
      })
    )
  )
})

/** list_models: the model references a reasoning function may name, aliases and wildcards included. */
export const listModels = declare({
  name: "list_models",
  title: "List models",
  description:
    "List the models a reasoning function may name, in the shape of the OpenAI API's list of models. A reasoning function names its model as <provider>/<model id>, or as an alias its operator set up; use a concrete id from this list as the function's model (an id ending in * stands for any model id of that prefix, not a model to run). narrowed says whether the operator's allow list narrows it; catalog_status partial means a provider could not be asked just now. A reasoning function names its tools as server/tool or server/*; search finds them.",
  tag: "models",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/models" },
  input: ListModelsInput,
  output: ModelList,
  permission: "org:read",
  hints: { reachesOutside: true },
  served: { http: true, mcp: ["root", "org"] },
  summarize: (list) => modelListWords(list),
  handle: (input) => Effect.flatMap(Models, (models) => models.list(input.provider))
})
