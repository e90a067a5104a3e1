import { sandboxRules } from "../../sandbox/sandboxPrelude.js"

/** The file name QuickJS gives an expression, so its errors name it. */
export const expressionFile = "expression.js"

/**
 * The script a fresh expression context evaluates first (workflow-format.md §6.3): the computation sandbox's own
 * rules (`sandboxRules`: no `eval`/`Function`/`Math.random`/`Promise`/`WeakRef`/`FinalizationRegistry`, `Date`
 * pinned, local-time forms raising), then it gives back the expression runner:
 * `(expression, variablesJson, now) => "J<json>" | "U<why not JSON>" | "E<line>\n<error>"`.
 *
 * The runner pins `Date` to `now`, defines each variable of `variablesJson` (`[[name, json], …]`) as a read-only
 * global whose value is parsed at its first read, so an expression pays only for the variables it reads, calls
 * `expression` and writes its value as JSON (§6.2): `undefined` as `null`, also as a member or an item; whatever
 * JSON cannot carry named by its path (`$.lines[2].due holds a Date`), spelled out only then. It copies the value
 * into objects and arrays without prototypes before `JSON.stringify`, reading each member once, so a getter or a
 * `toJSON` the expression put on a prototype cannot change what is written (decision 0263). It is called once per
 * context.
 */
export const expressionPrelude = `(function () {
  ${sandboxRules}
  const setProto = Object.setPrototypeOf;
  const copied = [], trail = [];
  let problem;
  const pathTo = (depth) => {
    let path = "$";
    for (let index = 0; index < depth - 1; index++) {
      path += typeof trail[index] === "number" ? "[" + trail[index] + "]" : named(trail[index]);
    }
    return path;
  };
  const fail = (depth, words) => { problem = pathTo(depth) + words; return null; };
  const copy = (value, depth) => {
    switch (typeof value) {
      case "string": case "boolean": return value;
      case "number": return finite(value) ? value : fail(depth, " holds " + (value !== value ? "NaN" : value > 0 ? "Infinity" : "-Infinity"));
      case "undefined": return null;
      case "bigint": return fail(depth, " holds a BigInt");
      case "symbol": return fail(depth, " holds a symbol");
      case "function": return fail(depth, " holds a function");
    }
    if (value === null) return null;
    if (depth > 512) { problem = "the value nests deeper than 512 levels, at " + pathTo(depth); return null; }
    for (let index = 0; index < depth - 1; index++) {
      if (copied[index] === value) return fail(depth, " holds a cycle: a value that contains itself");
    }
    const list = isArray(value);
    const proto = getProto(value);
    if (list ? proto !== ArrayProto : proto !== ObjectProto && proto !== null) return fail(depth, " holds " + kindOf(proto));
    copied[depth - 1] = value;
    let made;
    if (list) {
      made = setProto([], null);
      for (let index = 0; index < value.length && problem === undefined; index++) {
        trail[depth - 1] = index;
        if (!apply(hasOwn, value, [index])) return fail(depth + 1, " is a hole in the list");
        made[index] = copy(value[index], depth + 1);
      }
    } else {
      made = { __proto__: null };
      const names = keys(value);
      for (let index = 0; index < names.length && problem === undefined; index++) {
        const name = names[index];
        trail[depth - 1] = name;
        define(made, name, { value: copy(value[name], depth + 1), enumerable: true });
      }
    }
    copied[depth - 1] = undefined;
    return made;
  };
  const variable = (text) => {
    let parsed, read = false;
    return { get: function () { if (!read) { parsed = parse(text); read = true; } return parsed; }, enumerable: true };
  };
  return function run(expression, variablesJson, now) {
    pinnedNow = now;
    try {
      const variables = parse(variablesJson);
      for (let index = 0; index < variables.length; index++) define(g, variables[index][0], variable(variables[index][1]));
      const json = copy(expression(), 1);
      return problem === undefined ? "J" + stringify(json) : "U" + problem;
    } catch (error) {
      return "E" + describe(error);
    }
  };
})`
