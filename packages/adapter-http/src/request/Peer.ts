import type { RequestInfo } from "@runledger/core"
import { Context } from "effect"

/** What the server knows of a request beyond the web-standard one (its peer's address), handed into the app. */
export class Peer extends Context.Tag("@runledger/adapter-http/Peer")<Peer, RequestInfo>() {}
