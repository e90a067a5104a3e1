import type { Rejection } from "../domain/Rejection.js"

/**
 * The delay a rejection asks, as a run's record keeps it (`retry_after_ms`): `run_rejected` records no delay, so a
 * format keeps it in the record for the run's rejection to carry it again, on the first answer and on a request
 * repeated under the run's id (ADR 0308, ADR 0331, ADR 0342).
 */
export const delayKept = (rejection: Rejection): { readonly retry_after_ms?: number } =>
  rejection.retryAfter === undefined ? {} : { retry_after_ms: rejection.retryAfter * 1000 }
