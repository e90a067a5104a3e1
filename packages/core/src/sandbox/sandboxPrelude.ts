/** The file name QuickJS gives the program, so error stacks name its lines. */
export const programFile = "main.js"

/** The property of the object handed to the wrapped program where its default export is put. */
export const entryName = "__runledger_entry__"

/**
 * The statements every sandbox prelude begins with (function-formats.md §1.9). In strict mode they capture the
 * intrinsics a runner uses (and `eval`, as `evaluate`, before removing it), remove what a script may not reach,
 * pin `Date` to `pinnedNow` (the runner that follows sets it before any user code runs) and make local-time forms
 * raise `TypeError`.
 */
const sandboxGuards = `"use strict";
  const g = globalThis, evaluate = g.eval;
  let pinnedNow = 0;
  const apply = Reflect.apply, construct = Reflect.construct, getProto = Object.getPrototypeOf;
  const keys = Object.keys, define = Object.defineProperty, hasOwn = Object.prototype.hasOwnProperty;
  const getOwn = Object.getOwnPropertyDescriptor, isArray = Array.isArray, finite = Number.isFinite;
  const stringify = JSON.stringify, parse = JSON.parse, exec = RegExp.prototype.exec, toText = String;
  const RealRegExp = RegExp;
  const ObjectProto = Object.prototype, ArrayProto = Array.prototype, ErrorProto = Error.prototype;
  const RealDate = Date, DateProto = Date.prototype, getTime = Date.prototype.getTime;
  const refuse = (words) => function () { throw new TypeError(words); };
  const kinds = [
    [DateProto, "a Date"], [Map.prototype, "a Map"], [Set.prototype, "a Set"], [WeakMap.prototype, "a WeakMap"],
    [WeakSet.prototype, "a WeakSet"], [RegExp.prototype, "a RegExp"], [Boolean.prototype, "a boxed boolean"],
    [Number.prototype, "a boxed number"], [String.prototype, "a boxed string"], [Symbol.prototype, "a boxed symbol"],
    [BigInt.prototype, "a boxed BigInt"], [getProto(Int8Array.prototype), "a typed array"],
    [ArrayBuffer.prototype, "an ArrayBuffer"], [DataView.prototype, "a DataView"], [ErrorProto, "an Error"]
  ];
  for (const name of ["eval", "Function", "Promise", "WeakRef", "FinalizationRegistry", "SharedArrayBuffer", "Atomics"]) {
    delete g[name];
  }
  delete Math.random;
  const noCode = refuse("generated code is not available: the program may read only its argument");
  for (const made of [function () {}, function* () {}, async function () {}, async function* () {}]) {
    define(getProto(made), "constructor", { value: noCode, writable: false, configurable: false });
  }
  // Built at first use: a regular-expression literal costs its compilation in every context, used or not.
  const matcher = (source, flags) => {
    let made;
    return (text) => apply(exec, made ??= construct(RealRegExp, [source, flags]), [text]);
  };
  const dateOnly = matcher("^[+-]?\\\\d{4,6}-\\\\d{2}-\\\\d{2}$", "");
  const withOffset = matcher("^[+-]?\\\\d{4,6}-\\\\d{2}-\\\\d{2}T\\\\d{2}:\\\\d{2}(:\\\\d{2}(\\\\.\\\\d{1,9})?)?(Z|[+-]\\\\d{2}:?\\\\d{2})$", "i");
  const dateText = (text) => {
    if (dateOnly(text) === null && withOffset(text) === null) {
      throw new TypeError("a date-time without Z or an offset reads the local time zone; write one, or a date alone");
    }
    return text;
  };
  const SandboxDate = function Date(value) {
    if (new.target === undefined) throw new TypeError("Date() without new reads the local time; use new Date().toISOString()");
    if (arguments.length > 1) {
      throw new TypeError("new Date(year, month, ...) reads the local time zone; use new Date(Date.UTC(year, month, ...))");
    }
    const time = arguments.length === 0 ? pinnedNow
      : typeof value === "string" ? dateText(value)
      : value instanceof RealDate ? apply(getTime, value, []) : value;
    return construct(RealDate, [time], new.target);
  };
  define(SandboxDate, "prototype", { value: DateProto, writable: false });
  define(DateProto, "constructor", { value: SandboxDate, writable: true, configurable: true });
  define(SandboxDate, "now", { value: function now() { return pinnedNow; }, writable: true, configurable: true });
  define(SandboxDate, "UTC", { value: RealDate.UTC, writable: true, configurable: true });
  define(SandboxDate, "parse", { value: function parse(text) { return RealDate.parse(dateText(toText(text))); }, writable: true, configurable: true });
  for (const name of ["getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes", "getSeconds",
    "getMilliseconds", "getTimezoneOffset", "getYear", "setFullYear", "setMonth", "setDate", "setHours", "setMinutes",
    "setSeconds", "setMilliseconds", "setYear", "toString", "toDateString", "toTimeString", "toLocaleString",
    "toLocaleDateString", "toLocaleTimeString"]) {
    define(DateProto, name, { value: refuse("Date." + name + " reads the local time zone; use the UTC methods and toISOString()"), writable: true, configurable: true });
  }
  define(g, "Date", { value: SandboxDate, writable: true, configurable: true });
`

/** The names of `sandboxGuards` that `sandboxWords` reads. */
const wordsScope = [
  "matcher",
  "stringify",
  "keys",
  "getProto",
  "getOwn",
  "kinds",
  "ObjectProto",
  "ArrayProto",
  "finite",
  "isArray",
  "apply",
  "hasOwn",
  "toText"
]

/**
 * The words of a failure: `inspect(value, path, depth)` names the first path of a value that JSON cannot carry,
 * `describe(error)` gives `<line>\\n<name>: <message>` of what a script raised, `kindOf` and `named` help them.
 * They read only intrinsics captured by `sandboxGuards`.
 */
const sandboxWords = `  const identifier = matcher("^[A-Za-z_$][A-Za-z0-9_$]*$", "");
  const programLine = matcher("${programFile.replace(".", "\\\\.")}:(\\\\d+)", "");
  const named = (key) => identifier(key) === null ? "[" + stringify(key) + "]" : "." + key;
  const kindOf = (proto) => {
    for (let link = proto; link !== null && link !== ObjectProto; link = getProto(link)) {
      for (let index = 0; index < kinds.length; index++) if (kinds[index][0] === link) return kinds[index][1];
    }
    const maker = getOwn(proto, "constructor");
    const name = maker !== undefined && typeof maker.value === "function" ? maker.value.name : "";
    return typeof name === "string" && name !== "" ? "an instance of " + name : "an object with a prototype";
  };
  const ancestors = [];
  const inspect = (value, path, depth) => {
    switch (typeof value) {
      case "string": case "boolean": return undefined;
      case "number": return finite(value) ? undefined : path + " holds " + (value !== value ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
      case "undefined": return path + " holds undefined";
      case "bigint": return path + " holds a BigInt";
      case "symbol": return path + " holds a symbol";
      case "function": return path + " holds a function";
    }
    if (value === null) return undefined;
    if (depth > 512) return "the value nests deeper than 512 levels, at " + path;
    for (let index = 0; index < depth - 1; index++) if (ancestors[index] === value) return path + " holds a cycle: a value that contains itself";
    const proto = getProto(value);
    if (isArray(value) ? proto !== ArrayProto : proto !== ObjectProto && proto !== null) return path + " holds " + kindOf(proto);
    ancestors[depth - 1] = value;
    if (isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        if (!apply(hasOwn, value, [index])) return path + "[" + index + "] is a hole in the list";
        const found = inspect(value[index], path + "[" + index + "]", depth + 1);
        if (found !== undefined) return found;
      }
    } else {
      const names = keys(value);
      for (let index = 0; index < names.length; index++) {
        const found = inspect(value[names[index]], path + named(names[index]), depth + 1);
        if (found !== undefined) return found;
      }
    }
    ancestors[depth - 1] = undefined;
    return undefined;
  };
  const describe = (error) => {
    if (typeof error !== "object" || error === null) {
      return typeof error === "function" || typeof error === "symbol" ? "a " + typeof error : toText(error);
    }
    const name = typeof error.name === "string" ? error.name : "Error";
    const message = typeof error.message === "string" ? error.message : "";
    const stack = typeof error.stack === "string" ? error.stack : "";
    const at = programLine(stack);
    return (at === null ? "" : at[1]) + "\\n" + name + (message === "" ? "" : ": " + message);
  };`

/**
 * The statements every sandbox prelude begins with (function-formats.md §1.9), shared by the computation runner
 * below and the workflow expression runner (workflow-format.md §6.3): `sandboxGuards`, then `sandboxWords`, so
 * a runner has in scope the intrinsics they captured and `inspect`, `kindOf`, `named` and `describe`.
 */
export const sandboxRules = `${sandboxGuards}
${sandboxWords}`

/**
 * `sandboxWords` as a script that evaluates to a function of the guards' captured intrinsics (`wordsScope`),
 * giving `{ inspect, describe }`: the computation runner compiles it only when a run fails or gives what its fast
 * JSON check is not sure of, so a run that succeeds pays nothing for it (decision 0233). The host hands it to the
 * prelude as an argument: as a literal in the prelude, its text alone would cost a tenth of the prelude's parse.
 */
export const wordsScript = `(function (${wordsScope.join(", ")}) {
  "use strict";
${sandboxWords}
  return { inspect, describe };
})`

/**
 * The script every context evaluates before the program (function-formats.md §1.9). It removes what a program
 * may not reach (`eval`, `Function` and every code-generating constructor, `Math.random`, `Promise`, `WeakRef`,
 * `FinalizationRegistry`, shared memory), pins `Date` to the run's start and makes local-time forms raise
 * `TypeError`, then gives back the runner:
 * `(factory, inputJson, now, maxOutputChars) => "J<json>" | "U<why not JSON>" | "O<length>" | "M" (no default export) | "E<line>\n<error>"`.
 * The runner captures every intrinsic it uses first, so a program that rewrites prototypes cannot mislead it. It
 * writes the output with a checking `JSON.stringify`; only when that check is not sure, or the program raised,
 * does it compile `wordsScript` (the prelude's argument) for the words (decision 0233). It takes nothing of a run
 * until it is called (the clock is pinned then), so a context can be readied before its run arrives; it is called
 * once per context.
 */
export const sandboxPrelude = `(function (wordsScript) {
  ${sandboxGuards}
  let words;
  const wordsOf = () => words ??= apply(evaluate, undefined, [wordsScript])(${wordsScope.join(", ")});
  const plainText = (output) => {
    let sure = true, last;
    const holders = [];
    const text = stringify(output, function (key, value) {
      const holder = this;
      if (holders.length === 0 || holder === last) holders[holders.length] = holder;
      else while (holders.length > 0 && holders[holders.length - 1] !== holder) holders.length--;
      if (holders.length === 0 || value !== holder[key]) sure = false;
      else if (typeof value === "object" && value !== null) {
        const proto = getProto(value);
        if (holders.length > 512 || (isArray(value) ? proto !== ArrayProto : proto !== ObjectProto && proto !== null)) sure = false;
        last = value;
      } else if (typeof value === "number" ? !finite(value) : typeof value !== "string" && typeof value !== "boolean" && value !== null) sure = false;
      if (isArray(holder) && !apply(hasOwn, holder, [key])) sure = false;
      return sure ? value : undefined;
    });
    return sure ? text : undefined;
  };
  return function run(factory, inputJson, now, maxOutputChars) {
    pinnedNow = now;
    try {
      const entry = { main: undefined };
      factory(entry);
      const main = entry.main;
      if (typeof main !== "function") return "M";
      const output = apply(main, undefined, [parse(inputJson)]);
      let text;
      try { text = plainText(output); } catch { text = undefined; }
      if (text === undefined) {
        const problem = wordsOf().inspect(output, "$", 1);
        if (problem !== undefined) return "U" + problem;
        text = stringify(output);
      }
      return text.length > maxOutputChars ? "O" + text.length : "J" + text;
    } catch (error) {
      return "E" + wordsOf().describe(error);
    }
  };
})`
