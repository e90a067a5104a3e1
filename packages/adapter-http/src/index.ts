/** @runledger/adapter-http: the operation catalog as HTTP routes, problem documents and an OpenAPI document. */
export { type Listening, listen } from "./listen.js"
export { type OpenApiSources, openApiDocument } from "./openapi/openApiDocument.js"
export { type HttpHandlerOptions, toWebHandler } from "./toWebHandler.js"
