/** The base under which every schema of the OpenAPI document has its `$id` (HTTP "The OpenAPI document"). */
export const schemaBase = "https://on.auto/schemas/runtime/"
