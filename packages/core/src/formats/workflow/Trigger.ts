import type { EventFilter } from "./EventFilter.js"

/**
 * One trigger of a workflow's `schedule` (workflow-format.md §12), as `get_definition` shows it (§12.6). A cron
 * trigger's `timeZone` comes from the `CRON_TZ=<zone>` prefix (decision W4); without it the times are UTC.
 */
export type Trigger =
  | {
      readonly kind: "event"
      readonly reference: "/schedule/on"
      /** Event-trigger filters all have a literal `type`. */
      readonly filters: ReadonlyArray<EventFilter & { readonly type: string }>
    }
  | {
      readonly kind: "cron"
      readonly reference: "/schedule/cron"
      /** The five fields, without the zone prefix. */
      readonly expression: string
      readonly timeZone?: string
    }
  | { readonly kind: "every"; readonly reference: "/schedule/every"; readonly milliseconds: number }
