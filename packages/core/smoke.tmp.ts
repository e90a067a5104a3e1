import { header, issuesOf, workflow } from "./test/workflow/workflowFixture.js"
const pause = "  - a:\n      wait: PT1S\n"
const show = (n: string, s: string) => console.log("==", n, "\n" + issuesOf(s).map(x => x.slice(0, 250)).join("\n"))
show("anchors", workflow("  - a: &x\n      wait: PT1S\n  - b: *x\n"))
show("tags", workflow("  - a:\n      wait: !!str PT1S\n"))
show("size", `${workflow(pause)}# ${"x".repeat(65_536)}\n`)
show("deep", `${header}bogus: 1\ndo:\n  - a:\n      set:\n        x: ${"[".repeat(520)}${"]".repeat(520)}\n`)
const nest = (depth: number): string =>
      depth === 0 ? "wait: PT1S" : `do:\n${" ".repeat(2 * (65 - depth))}- t:\n${" ".repeat(2 * (65 - depth) + 4)}${nest(depth - 1)}`
show("lists", `${header}${nest(65)}\n`)
show("root", "name: x\n")
show("for", workflow("  - total:\n      for: { each: line, at: position, in: $data.lines }\n      while: ($data.sum ?? 0) < 100000\n      do:\n        - add:\n            set:\n              sum: ${ ($data.sum ?? 0) + $line.amount_cents }\n              counted: ${ $position + 1 }\n              wrong: ${ $item }\n"))
show("emit1", workflow("  - a:\n      emit:\n        event:\n          with: { data: 1 }\n"))
show("emit2", workflow("  - a:\n      emit:\n        event:\n          with: { type: run_started, source: invoices, id: x, depth: 1 }\n  - b:\n      emit:\n        event:\n          with: { type: ok, source: /runs/1 }\n"))
show("sched", workflow(pause, "schedule:\n  after: PT1H\n  on:\n    all: []\n    until: x\n"))
show("trig", workflow(pause, "schedule:\n  on:\n    any:\n      - with: { source: https://x.example }\n      - with: { type: '${ \"a\" }', subject: '${ $data }', region: eu }\n"))
