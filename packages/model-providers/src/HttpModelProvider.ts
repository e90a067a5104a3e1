import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { type ListedModel, ModelListFailed, ModelProvider, type ModelProviderEntry } from "@runledger/core"
import { Effect, Either, Layer } from "effect"
import { messagesAnswer, messagesRequest, modelsPage, modelsPageRequest } from "./anthropicMessages.js"
import { chatAnswer, chatRequest, listedModels, modelsRequest } from "./openAiChat.js"
import { sendRequest } from "./sendRequest.js"

/** How long listing a provider's models may take. */
const listTimeoutMs = 10_000

/** The most pages of Anthropic's list read. */
const listPages = 20

const listFailure = (provider: ModelProviderEntry, why: string) =>
  new ModelListFailed({ detail: `The models of ${provider.name} could not be listed: ${why}` })

const readList = (
  provider: ModelProviderEntry,
  response: { status: number; text: string },
  read: (text: string) => Either.Either<ReadonlyArray<ListedModel>, string>
) =>
  response.status >= 200 && response.status <= 299
    ? Either.mapLeft(read(response.text), (why) => listFailure(provider, why))
    : Either.left(listFailure(provider, `it answered ${response.status}`))

const listOpenAi = (provider: ModelProviderEntry) =>
  sendRequest(modelsRequest(provider), listTimeoutMs).pipe(
    Effect.mapError((failure) => listFailure(provider, failure.providerMessage)),
    Effect.flatMap((response) => readList(provider, response, listedModels))
  )

const listAnthropic = (provider: ModelProviderEntry) =>
  Effect.gen(function* () {
    const models: Array<ListedModel> = []
    let after: string | undefined
    for (let page = 0; page < listPages; page++) {
      const response = yield* sendRequest(modelsPageRequest(provider, after), listTimeoutMs).pipe(
        Effect.mapError((failure) => listFailure(provider, failure.providerMessage))
      )
      const read = yield* readList(provider, response, (text) =>
        Either.map(modelsPage(text), (page) => {
          after = page.next
          return page.models
        })
      )
      models.push(...read)
      if (after === undefined) break
    }
    return models
  })

/** The model provider over HTTP: each entry's API, OpenAI-compatible chat completions or Anthropic Messages. */
export const layerWithClient: Layer.Layer<ModelProvider, never, HttpClient.HttpClient> = Layer.effect(
  ModelProvider,
  Effect.map(Effect.context<HttpClient.HttpClient>(), (context) => ({
    call: (request) =>
      (request.provider.api === "anthropic"
        ? Effect.flatMap(sendRequest(messagesRequest(request), request.timeoutMs), (response) =>
            messagesAnswer(response, request)
          )
        : Effect.flatMap(sendRequest(chatRequest(request), request.timeoutMs), (response) =>
            chatAnswer(response, request)
          )
      ).pipe(Effect.provide(context)),
    list: (provider) =>
      (provider.api === "anthropic" ? listAnthropic(provider) : listOpenAi(provider)).pipe(Effect.provide(context))
  }))
)

/** The model provider over HTTP on the platform's `fetch`. */
export const layer: Layer.Layer<ModelProvider> = layerWithClient.pipe(Layer.provide(FetchHttpClient.layer))
