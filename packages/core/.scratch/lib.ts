import { sandboxLibrary } from "../src/sandbox/sandboxLibrary.js"
const text = sandboxLibrary()
console.log(text.length, /declare var Math/.test(text), /declare var Map/.test(text), /interface Math \{/.test(text))
const i = text.indexOf("interface Math {"); console.log(text.slice(i, i + 300))
