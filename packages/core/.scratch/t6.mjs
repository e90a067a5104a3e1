import { parseDocument, LineCounter, isMap, isSeq, isScalar, isAlias, isPair, visit } from "yaml"
const src = `a: 1\nb: !foo x\nc: &an [1, 2]\nd: *an\na: 2\ne: .inf\nf: yes\ng: 2026-10-01\nh: !!str 5\n? [x]\n: 1\ni: 0x1F\nj: 1e400\n`
const lc = new LineCounter()
const doc = parseDocument(src, { schema: "core", uniqueKeys: true, lineCounter: lc, prettyErrors: false, version: "1.2", merge: false, intAsBigInt: false })
console.log(doc.errors.map(e => [e.code, e.message, e.pos]))
console.log(doc.warnings.map(e => [e.code, e.message, e.pos]))
visit(doc, { Scalar(k, n) { console.log("scalar", JSON.stringify(n.value), n.tag, n.type, n.range, n.anchor) }, Alias(k,n){ console.log("alias", n.source, n.range)}, Seq(k,n){console.log("seq", n.tag, n.anchor)} })
const d2 = parseDocument("a: [1, 2\n", { schema: "core", lineCounter: lc });
console.log(d2.errors.map(e => [e.code, e.message.split("\n")[0], e.pos]))
const d3 = parseDocument("", { schema: "core" }); console.log(d3.contents, d3.errors)
const d4 = parseDocument("a: 1\n---\nb: 2\n", { schema: "core" }); console.log(d4.errors.map(e=>e.code))
