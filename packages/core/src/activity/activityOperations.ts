import type { Operation } from "../catalog/Operation.js"
import { listActivity } from "./operations/listActivity.js"
import { markActivitySeen } from "./operations/markActivitySeen.js"

/** The activity's operations, in the catalog's order; both are served over HTTP alone. */
export const activityOperations: ReadonlyArray<Operation> = [listActivity, markActivitySeen]
